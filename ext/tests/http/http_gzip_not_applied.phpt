--TEST--
HTTP: no compression when the client accepts no coding the server has, the body is small, the type is not compressible, or gzip (every coding) is off
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$big = str_repeat('hello world ', 1000);
$handler = 'function ($req, $res) use ($big) {
    match ($req->path) {
        "/big" => $res->header("Content-Type", "text/plain")->end($big),
        "/small" => $res->header("Content-Type", "text/plain")->end("tiny"),
        "/image" => $res->header("Content-Type", "image/png")->end($big),
    };
}';
$code = '$big = ' . var_export($big, true) . ';';
$srv = http_server_start($handler, [], $code);
$cases = [
    ['/big', 'Accept-Encoding: identity'],
    ['/big', 'Accept-Encoding: gzip;q=0'],
    ['/big', 'Accept-Encoding: deflate, compress'],
    ['/big', 'X-None: 1'],
    ['/small', 'Accept-Encoding: gzip'],
    ['/image', 'Accept-Encoding: gzip'],
];
foreach ($cases as [$path, $h]) {
    $r = http_get($srv->port, $path, [$h]);
    echo "$path $h: ", $r['headers']['content-encoding'][0] ?? 'plain', ' ', strlen($r['body']), "\n";
}
http_report_stop($srv);
$srv = http_server_start($handler, ['gzip' => false], $code);
$r = http_get($srv->port, '/big', ['Accept-Encoding: gzip, br, zstd']);
echo "gzip off: ", $r['headers']['content-encoding'][0] ?? 'plain', ' ', strlen($r['body']), "\n";
http_report_stop($srv);
$srv = http_server_start($handler, ['gzip_min_length' => 2], $code);
$r = http_get($srv->port, '/small', ['Accept-Encoding: gzip']);
echo "gzip_min_length 2: ", $r['headers']['content-encoding'][0] ?? 'plain', ' ', gzdecode($r['body']), "\n";
http_report_stop($srv);
?>
--EXPECT--
/big Accept-Encoding: identity: plain 12000
/big Accept-Encoding: gzip;q=0: plain 12000
/big Accept-Encoding: deflate, compress: plain 12000
/big X-None: 1: plain 12000
/small Accept-Encoding: gzip: plain 4
/image Accept-Encoding: gzip: plain 12000
exit: 0
gzip off: plain 12000
exit: 0
gzip_min_length 2: gzip tiny
exit: 0
