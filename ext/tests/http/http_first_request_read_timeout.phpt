--TEST--
HTTP: a new connection's first request must arrive whole within read_timeout of the accept, not of its first byte; a keep-alive request's time runs from its own first byte
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }', ['read_timeout' => 1.5, 'keepalive_timeout' => 30]);

$t0 = microtime(true);
$c = new HttpTestConn($srv->port);
usleep(1000000);
$c->send("GET / HTTP/1.1\r\n");
$r = $c->response(5);
$elapsed = microtime(true) - $t0;
echo "first request: {$r['status']}, ", $elapsed < 2.2 ? "from the accept\n" : sprintf("after %.1f s\n", $elapsed);

$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo 'answered: ', $c->response()['body'], "\n";
usleep(1000000);
$t1 = microtime(true);
$c->send("GET / HTTP/1.1\r\n");
$r = $c->response(5);
$elapsed = microtime(true) - $t1;
echo "keep-alive request: {$r['status']}, ", $elapsed > 1.2 ? "from its first byte\n" : sprintf("after %.1f s\n", $elapsed);
http_report_stop($srv);
?>
--EXPECT--
first request: 408, from the accept
answered: ok
keep-alive request: 408, from its first byte
exit: 0
