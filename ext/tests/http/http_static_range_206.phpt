--TEST--
HTTP: a Range request for a static file gets 206 with Content-Range and just those bytes
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$big = random_bytes(1 << 20);
file_put_contents("$root/pub/big.bin", $big);
$srv = http_server_start('function ($req, $res) { $res->status(299)->end("handler"); }', ['document_root' => "$root/pub"]);
$etag = http_get($srv->port, '/digits.txt')['headers']['etag'][0];
$c = new HttpTestConn($srv->port);
foreach (['bytes=0-9', 'bytes=10-', 'bytes=-5', 'bytes=5-1000', 'bytes=19-19', 'bytes=0-1,3-4', 'bytes=x'] as $range) {
    $c->send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nRange: $range\r\n\r\n");
    $r = $c->response();
    echo "$range: {$r['status']} ", $r['headers']['content-range'][0] ?? '-', " {$r['headers']['content-length'][0]} [{$r['body']}]\n";
}
$c->send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=0-4\r\nIf-Range: $etag\r\n\r\n");
$r = $c->response();
echo "If-Range current: {$r['status']} [{$r['body']}]\n";
$c->send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=0-4\r\nIf-Range: \"stale\"\r\n\r\n");
$r = $c->response();
echo "If-Range stale: {$r['status']} [{$r['body']}]\n";
/* A large range goes out with sendfile as the socket drains. */
$c->send("GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=1000-900000\r\nConnection: close\r\n\r\n");
$r = $c->response();
echo "big: {$r['status']} {$r['headers']['content-range'][0]} ", $r['body'] === substr($big, 1000, 899001) ? 'same' : 'differs', "\n";
[$code, $out] = http_curl(['-r', '100-199', "http://127.0.0.1:{$srv->port}/big.bin"]);
echo "curl -r: $code ", $out === substr($big, 100, 100) ? 'same' : 'differs', "\n";
http_report_stop($srv);
http_static_remove($root);
?>
--EXPECT--
bytes=0-9: 206 bytes 0-9/20 10 [0123456789]
bytes=10-: 206 bytes 10-19/20 10 [abcdefghij]
bytes=-5: 206 bytes 15-19/20 5 [fghij]
bytes=5-1000: 206 bytes 5-19/20 15 [56789abcdefghij]
bytes=19-19: 206 bytes 19-19/20 1 [j]
bytes=0-1,3-4: 200 - 20 [0123456789abcdefghij]
bytes=x: 200 - 20 [0123456789abcdefghij]
If-Range current: 206 [01234]
If-Range stale: 200 [0123456789abcdefghij]
big: 206 bytes 1000-900000/1048576 same
curl -r: 0 same
exit: 0
