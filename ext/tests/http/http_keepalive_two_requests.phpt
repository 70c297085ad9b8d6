--TEST--
HTTP: keep-alive serves two requests on one connection
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end($req->path . " from " . $req->remotePort); }');
$c = new HttpTestConn($srv->port);
$c->send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n");
$a = $c->response();
$c->send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n");
$b = $c->response();
echo $a['status'], ' ', explode(' from ', $a['body'])[0], "\n";
echo $b['status'], ' ', explode(' from ', $b['body'])[0], "\n";
/* The same TCP connection answered both: same client port. */
var_dump(explode(' from ', $a['body'])[1] === explode(' from ', $b['body'])[1]);
var_dump(isset($a['headers']['connection']) ? $a['headers']['connection'][0] : 'no Connection header');
var_dump($c->eof);
$c->close();
http_report_stop($srv);
?>
--EXPECT--
200 /one
200 /two
bool(true)
string(20) "no Connection header"
bool(false)
exit: 0
