--TEST--
HTTP: a HEAD request gets the headers of the GET response and no body
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->header("X-Method", $req->method)->end(str_repeat("b", 100)); }');
$c = new HttpTestConn($srv->port);
$c->send("HEAD /x HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response(3, true);
echo $r['status'], ' ', $r['headers']['x-method'][0], ' ', $r['headers']['content-length'][0] ?? 'no length', "\n";
/* Nothing follows the head: the next response starts right after it. */
$c->send("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$rest = $c->readAll(2);
echo substr($rest, 0, 15), "\n";
var_dump(str_ends_with($rest, str_repeat("b", 100)));
http_report_stop($srv);
?>
--EXPECT--
200 HEAD 100
HTTP/1.1 200 OK
bool(true)
exit: 0
