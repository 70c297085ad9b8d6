--TEST--
HTTP: a streamed (write()) body is gzip-compressed chunk by chunk when the client accepts gzip, each write flushed; not for clients without gzip, nor for text/event-stream
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->header("Content-Type", $req->path === "/events" ? "text/event-stream" : "text/plain");
    for ($i = 0; $i < 3; $i++) {
        $res->write(str_repeat("line $i of a long streamed page\n", 100));
    }
    $res->end();
}');
$expected = '';
for ($i = 0; $i < 3; $i++) {
    $expected .= str_repeat("line $i of a long streamed page\n", 100);
}
$r = http_get($srv->port, '/', ['Accept-Encoding: gzip']);
echo $r['status'], ' ', $r['headers']['content-encoding'][0] ?? '-', ' ', $r['headers']['transfer-encoding'][0] ?? '-',
    ' ', $r['headers']['vary'][0] ?? '-', "\n";
echo "decodes to the body: ", var_export(gzdecode($r['body']) === $expected, true),
    ", compressed: ", var_export(strlen($r['body']) < strlen($expected) / 5, true), "\n";

/* One connection: a gzip stream, then the same page without gzip. */
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
$r2 = $c->response();
echo "keep-alive reuse works after a gzip stream: ", var_export($r2 !== null && gzdecode($r2['body']) === $expected, true), "\n";
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$r3 = $c->response();
echo "same connection, no gzip: ", $r3['headers']['content-encoding'][0] ?? 'plain', ' ', $r3['headers']['vary'][0] ?? '-',
    ' ', var_export($r3['body'] === $expected, true), "\n";
$c->close();

$r = http_get($srv->port, '/events', ['Accept-Encoding: gzip']);
echo "event stream: ", $r['headers']['content-encoding'][0] ?? 'plain', ' ', var_export($r['body'] === $expected, true), "\n";

[$code, $out] = http_curl(['--compressed', "http://127.0.0.1:{$srv->port}/"]);
echo "curl --compressed: ", $code, ' ', var_export($out === $expected, true), "\n";
http_report_stop($srv);
?>
--EXPECT--
200 gzip chunked Accept-Encoding
decodes to the body: true, compressed: true
keep-alive reuse works after a gzip stream: true
same connection, no gzip: plain Accept-Encoding true
event stream: plain true
curl --compressed: 0 true
exit: 0
