--TEST--
HTTP: an HTTP/1.0 request with Connection: keep-alive keeps the connection open
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("path " . $req->path); }');
$c = new HttpTestConn($srv->port);
$c->send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
$r = $c->response();
echo $r['version'], ' ', $r['status'], ' ', $r['body'], "\n";
echo strtolower($r['headers']['connection'][0] ?? 'none'), "\n";
/* Still open: a second request on it is answered (waiting for a close that should not come would take the whole timeout). */
$c->send("GET /b HTTP/1.0\r\n\r\n");
$r = $c->response();
echo $r['status'], ' ', $r['body'], "\n";
var_dump($c->closedWithin(2));
http_report_stop($srv);
?>
--EXPECT--
HTTP/1.1 200 path /a
keep-alive
200 path /b
bool(true)
exit: 0
