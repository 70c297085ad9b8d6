--TEST--
HTTP: an HTTP/1.0 request without keep-alive gets Connection: close and the connection closes
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end($req->server()["SERVER_PROTOCOL"]); }');
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.0\r\n\r\n");
$r = $c->response();
echo $r['status'], ' ', $r['body'], "\n";
echo strtolower($r['headers']['connection'][0] ?? 'none'), "\n";
var_dump($r['headers']['content-length'][0]);
var_dump($c->closedWithin(2));
http_report_stop($srv);
?>
--EXPECT--
200 HTTP/1.0
close
string(1) "8"
bool(true)
exit: 0
