--TEST--
HTTP: a large compressible body is gzip-compressed when the client accepts gzip above the other codings
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$body = str_repeat('{"key":"value","n":12345}', 400);
$srv = http_server_start('function ($req, $res) use ($body) { $res->header("Content-Type", "application/json")->end($body); }',
    [], '$body = ' . var_export($body, true) . ';');
$r = http_get($srv->port, '/', ['Accept-Encoding: br;q=0.8, gzip;q=1.0, *;q=0.1']);
echo $r['status'], ' ', $r['headers']['content-encoding'][0], ' ', $r['headers']['vary'][0], "\n";
var_dump((int) $r['headers']['content-length'][0] === strlen($r['body']), strlen($r['body']) < strlen($body) / 10);
var_dump(gzdecode($r['body']) === $body);
[$code, $out] = http_curl(['--compressed', '-w', '%{size_download}', "http://127.0.0.1:{$srv->port}/"]);
$size = (int) substr($out, strlen($body));
echo $code, ' ', substr($out, 0, strlen($body)) === $body ? 'curl decoded it' : 'differs', ' ', $size < strlen($body) / 10 ? 'compressed on the wire' : "not compressed ($size)", "\n";
http_report_stop($srv);
?>
--EXPECT--
200 gzip Accept-Encoding
bool(true)
bool(true)
bool(true)
0 curl decoded it compressed on the wire
exit: 0
