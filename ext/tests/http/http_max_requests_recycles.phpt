--TEST--
HTTP: after max_requests responses the worker stops accepting, closes with the last response, and start() returns
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }', ['max_requests' => 2], '',
    '$server->on("workerStop", function () { echo "workerStop\n"; });');
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo "1: {$r['body']} ", $r['headers']['connection'][0] ?? 'keep-alive', "\n";
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo "2: {$r['body']} ", $r['headers']['connection'][0] ?? 'keep-alive', "\n";
var_dump($c->closedWithin(3));
/* No signal: the process ends by itself. */
$r = $srv->stop(0);
echo "exit: {$r['code']}\n", $r['out'];
?>
--EXPECT--
1: ok keep-alive
2: ok close
bool(true)
exit: 0
ready
workerStop
start() returned
