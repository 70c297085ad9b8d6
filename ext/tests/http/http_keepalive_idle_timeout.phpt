--TEST--
HTTP: an idle keep-alive connection is closed after keepalive_timeout, without an answer
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }', ['keepalive_timeout' => 0.5, 'read_timeout' => 1]);
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo $c->response()['body'], "\n";
$t0 = microtime(true);
$rest = $c->readAll(5);
$elapsed = microtime(true) - $t0;
var_dump($c->eof, $rest);
var_dump($elapsed > 0.3 && $elapsed < http_test_timeout(3));
/* A new connection that never sends a byte is closed silently after read_timeout. */
$c = new HttpTestConn($srv->port);
$t0 = microtime(true);
var_dump($c->readAll(5), $c->eof);
$elapsed = microtime(true) - $t0;
var_dump($elapsed > 0.8 && $elapsed < http_test_timeout(3));
http_report_stop($srv);
?>
--EXPECT--
ok
bool(true)
string(0) ""
bool(true)
string(0) ""
bool(true)
bool(true)
exit: 0
