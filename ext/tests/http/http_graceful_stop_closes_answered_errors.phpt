--TEST--
HTTP: a graceful stop does not wait for connections already answered with an error (lingering close)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }');
/* A client that got its 400 but keeps the socket open, without reading. */
$raw = stream_socket_client("tcp://127.0.0.1:{$srv->port}");
fwrite($raw, "GET / HTTP/9.9\r\nHost: x\r\n\r\n");
echo fgets($raw);
$t0 = microtime(true);
$r = $srv->stop();
$elapsed = microtime(true) - $t0;
echo "exit: {$r['code']}\n";
/* The lingering close lasts 2 s; the stop must not wait for it. */
var_dump($elapsed < 1.5 || http_test_valgrind());
fclose($raw);
?>
--EXPECT--
HTTP/1.1 505 HTTP Version Not Supported
exit: 0
bool(true)
