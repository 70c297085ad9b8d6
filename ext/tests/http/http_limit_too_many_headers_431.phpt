--TEST--
HTTP: more header fields than max_header_count gets 431
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end(count($req->headers) . " headers"); }', ['max_header_count' => 5]);
$req = fn(int $n) => "GET / HTTP/1.1\r\nHost: x\r\n" . implode('', array_map(fn($i) => "X-H$i: $i\r\n", range(1, $n))) . "\r\n";
$c = new HttpTestConn($srv->port);
$c->send($req(4));
echo "5 fields: ", $c->response()['body'], "\n";
$c->send($req(5));
$r = $c->response();
echo "6 fields: {$r['status']} {$r['reason']}\n";
var_dump($c->closedWithin(3));
http_report_stop($srv);
?>
--EXPECT--
5 fields: 5 headers
6 fields: 431 Request Header Fields Too Large
bool(true)
exit: 0
