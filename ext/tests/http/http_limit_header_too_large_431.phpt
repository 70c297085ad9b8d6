--TEST--
HTTP: a request head over max_header_size gets 431 and the connection closes; one at the limit is served
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok " . strlen($req->header("x-big"))); }', ['max_header_size' => 1024]);
/* The limit counts the request line, the fields and the empty line. */
$head = fn(int $n) => "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " . str_repeat('a', $n) . "\r\n\r\n";
$fixed = strlen($head(0));
$c = new HttpTestConn($srv->port);
$c->send($head(1024 - $fixed));
$r = $c->response();
echo "at the limit: {$r['status']} {$r['body']}\n";
$c->send($head(1025 - $fixed));
$r = $c->response();
echo "one byte over: {$r['status']} {$r['reason']}\n";
var_dump($c->closedWithin(3));
/* A head that never ends is cut off as soon as it passes the limit. */
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " . str_repeat('b', 4000));
$r = $c->response();
echo "unterminated: {$r['status']}\n";
/* Default limit (16 KiB) with curl. */
http_report_stop($srv);
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }');
[$code, $out] = http_curl(['-o', '/dev/null', '-w', '%{http_code}', '-H', 'X-Big: ' . str_repeat('c', 17000), "http://127.0.0.1:{$srv->port}/"]);
echo "curl 17000-byte header: $out\n";
http_report_stop($srv);
?>
--EXPECT--
at the limit: 200 ok 988
one byte over: 431 Request Header Fields Too Large
bool(true)
unterminated: 431
exit: 0
curl 17000-byte header: 431
exit: 0
