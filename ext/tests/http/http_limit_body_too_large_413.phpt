--TEST--
HTTP: a body over max_body_size gets 413 (Content-Length: before the body is read; chunked: when it passes the limit)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("got " . strlen($req->body())); }', ['max_body_size' => 100]);
$c = new HttpTestConn($srv->port);
$c->send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" . str_repeat('a', 100));
echo "100 bytes: ", $c->response()['body'], "\n";
/* Only the head is sent: the answer must not wait for the body. */
$c->send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n");
$r = $c->response();
echo "Content-Length 101: {$r['status']} {$r['reason']}\n";
var_dump($c->closedWithin(3));
$c = new HttpTestConn($srv->port);
$c->send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n" . str_repeat('b', 80) . "\r\n");
$c->send("20\r\n" . str_repeat('c', 32) . "\r\n");
$r = $c->response();
echo "chunked 112: {$r['status']}\n";
/* Expect: 100-continue with a body too large: 413 instead of 100. */
$c = new HttpTestConn($srv->port);
$c->send("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n");
$r = $c->response();
echo "expect + too large: {$r['status']}\n";
http_report_stop($srv);
?>
--EXPECT--
100 bytes: got 100
Content-Length 101: 413 Content Too Large
bool(true)
chunked 112: 413
expect + too large: 413
exit: 0
