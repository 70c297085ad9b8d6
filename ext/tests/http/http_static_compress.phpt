--TEST--
HTTP: static files are compressed on the fly (zstd, br, gzip, as response bodies are) up to static_compress_max_size: Content-Encoding, Vary, the compressed length, a weak ETag that If-None-Match matches, no Accept-Ranges; a Range gets the file as it is; HEAD; the copy is cached per worker and a changed file is compressed anew; curl decodes it on HTTP/1.1 and HTTP/2; images, small files, large files and gzip off are sent as they are
--EXTENSIONS--
rapier
--SKIPIF--
<?php
if (trim((string) shell_exec('command -v curl')) === '') {
    die('skip the curl command is not installed (scripts/install-deps.sh installs it)');
}
?>
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$pub = "$root/pub";
$js = '';
for ($i = 0; $i < 400; $i++) {
    $js .= "export function f$i(a, b) { return a * $i + b; }\n";
}
file_put_contents("$pub/app.js", $js);
file_put_contents("$pub/big.txt", str_repeat("a line of a large log file\n", 5000));   /* 135,000 bytes */
file_put_contents("$pub/photo.png", "\x89PNG\r\n\x1a\n" . str_repeat("\0", 4000));

$handler = 'function ($req, $res) use ($server) {
    $res->json(array_intersect_key($server->stats(), array_flip(
        ["static_compress_hits", "static_compress_misses", "static_compress_cached_bytes"])));
}';
$srv = http_server_start($handler, ['document_root' => $pub, 'http2' => true,
    'static_compress_max_size' => 100000]);

/* Status, coding, length check, ETag form, Accept-Ranges, Vary, and whether the body decodes to the file. */
function show(?array $r, string $want): string
{
    if ($r === null) {
        return 'no response';
    }
    $h = $r['headers'];
    $coding = $h['content-encoding'][0] ?? 'identity';
    $body = match ($coding) {
        'gzip' => gzdecode($r['body']),
        'identity' => $r['body'],
        default => null,   /* zstd and br: decoded by curl below */
    };
    return sprintf('%d %s len=%s etag=%s ranges=%s vary=%s body=%s', $r['status'], $coding,
        (int) ($h['content-length'][0] ?? -1) === strlen($r['body']) ? 'ok' : 'WRONG',
        isset($h['etag']) ? (str_starts_with($h['etag'][0], 'W/"') ? 'weak' : 'strong') : '-',
        $h['accept-ranges'][0] ?? '-', $h['vary'][0] ?? '-',
        $body === null ? 'n/a' : ($body === $want ? 'ok' : 'WRONG'));
}

$files = ['app.js' => $js, 'big.txt' => file_get_contents("$pub/big.txt"),
    'photo.png' => file_get_contents("$pub/photo.png"), 'style.css' => file_get_contents("$pub/style.css")];
$cases = [
    ['app.js', 'gzip, deflate, br, zstd'],
    ['app.js', 'gzip, deflate, br'],
    ['app.js', 'gzip'],
    ['app.js', null],
    ['big.txt', 'gzip'],
    ['photo.png', 'gzip'],
    ['style.css', 'gzip'],
];
foreach ($cases as [$name, $accept]) {
    $r = http_get($srv->port, "/$name", $accept === null ? [] : ["Accept-Encoding: $accept"]);
    printf("%-10s %-24s %s\n", $name, $accept ?? '(none)', show($r, $files[$name]));
}

echo "-- validators, ranges, HEAD\n";
$gz = http_get($srv->port, '/app.js', ['Accept-Encoding: gzip']);
$plain = http_get($srv->port, '/app.js');
$weak = $gz['headers']['etag'][0];
$strong = $plain['headers']['etag'][0];
echo "the weak tag is the file's: ", var_export($weak === "W/$strong", true), "\n";
foreach (['weak' => $weak, 'strong' => $strong] as $kind => $tag) {
    $r = http_get($srv->port, '/app.js', ['Accept-Encoding: gzip', "If-None-Match: $tag"]);
    printf("If-None-Match %-6s: %d etag=%s coding=%s vary=%s body=%d\n", $kind, $r['status'],
        $r['headers']['etag'][0] === $weak ? 'weak' : 'OTHER', $r['headers']['content-encoding'][0] ?? '-',
        $r['headers']['vary'][0] ?? '-', strlen($r['body']));
}
$r = http_get($srv->port, '/app.js', ['Accept-Encoding: gzip', 'Range: bytes=0-9']);
printf("Range: %d %s etag=%s vary=%s %s\n", $r['status'], $r['headers']['content-encoding'][0] ?? 'identity',
    $r['headers']['etag'][0] === $strong ? 'strong' : 'OTHER', $r['headers']['vary'][0] ?? '-',
    var_export($r['body'] === substr($js, 0, 10), true));
$r = http_get($srv->port, '/app.js', ['Accept-Encoding: gzip', 'Range: bytes=0-9', "If-Range: $weak"]);
printf("Range with If-Range of the weak tag: %d %s\n", $r['status'], $r['headers']['content-encoding'][0] ?? 'identity');
$c = new HttpTestConn($srv->port);
$c->send("HEAD /app.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
$r = $c->response(3, true);
printf("HEAD: %d %s length=%s\n", $r['status'], $r['headers']['content-encoding'][0] ?? '-',
    $r['headers']['content-length'][0] === (string) strlen($gz['body']) ? "the GET's" : 'OTHER');
/* The connection serves on after a compressed answer. */
$c->send("GET /app.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
$r = $c->response();
echo "next on the same connection: ", $r['status'], ' ', var_export(gzdecode($r['body']) === $js, true), "\n";
$c->close();

echo "-- the worker's cache\n";
$stats = fn () => json_decode(http_get($srv->port, '/stats')['body'], true);
$before = $stats();
for ($i = 0; $i < 3; $i++) {
    http_get($srv->port, '/app.js', ['Accept-Encoding: gzip']);
}
$after = $stats();
printf("3 more gzip requests: hits +%d, misses +%d\n", $after['static_compress_hits'] - $before['static_compress_hits'],
    $after['static_compress_misses'] - $before['static_compress_misses']);
echo "bytes kept: ", var_export($after['static_compress_cached_bytes'] > 0, true), "\n";
/* Same size, new content, a later mtime: never the old copy. */
$new = strtoupper($js);
file_put_contents("$pub/app.js", $new);
touch("$pub/app.js", time() + 5);
$r = http_get($srv->port, '/app.js', ['Accept-Encoding: gzip']);
echo "after the file changed: ", var_export(gzdecode($r['body']) === $new, true), ' ',
    var_export($r['headers']['etag'][0] !== $weak, true), "\n";

echo "-- curl\n";
foreach ([['--http1.1'], ['--http2-prior-knowledge']] as $version) {
    foreach ([[], ['-H', 'Accept-Encoding: br'], ['-H', 'Accept-Encoding: gzip']] as $extra) {
        [$rc, $out] = http_curl(array_merge($version, ['--compressed', '-D', '-'], $extra,
            ["http://127.0.0.1:{$srv->port}/app.js"]));
        [$head, $body] = explode("\r\n\r\n", $out, 2) + [1 => ''];
        preg_match('/^content-encoding: (\S+)/mi', $head, $m);
        printf("%-24s %-5s %d %s\n", $version[0], $m[1] ?? 'identity', $rc, var_export($body === $new, true));
    }
}
http_report_stop($srv);

echo "-- off\n";
foreach ([['static_compress_max_size' => 0], ['gzip' => false], ['compression' => []]] as $off) {
    $srv = http_server_start($handler, ['document_root' => $pub] + $off);
    printf("%-30s %s\n", json_encode($off), show(http_get($srv->port, '/app.js', ['Accept-Encoding: zstd, br, gzip']), $new));
    $srv->stop();
}

echo "-- no cache: every request compresses\n";
$srv = http_server_start($handler, ['document_root' => $pub, 'static_compress_cache' => 0]);
for ($i = 0; $i < 2; $i++) {
    $r = http_get($srv->port, '/app.js', ['Accept-Encoding: gzip']);
    echo show($r, $new), "\n";
}
$s = json_decode(http_get($srv->port, '/stats')['body'], true);
printf("hits %d, misses %d, bytes %d\n", $s['static_compress_hits'], $s['static_compress_misses'],
    $s['static_compress_cached_bytes']);
http_report_stop($srv);
?>
--EXPECT--
app.js     gzip, deflate, br, zstd  200 zstd len=ok etag=weak ranges=- vary=Accept-Encoding body=n/a
app.js     gzip, deflate, br        200 br len=ok etag=weak ranges=- vary=Accept-Encoding body=n/a
app.js     gzip                     200 gzip len=ok etag=weak ranges=- vary=Accept-Encoding body=ok
app.js     (none)                   200 identity len=ok etag=strong ranges=bytes vary=Accept-Encoding body=ok
big.txt    gzip                     200 identity len=ok etag=strong ranges=bytes vary=- body=ok
photo.png  gzip                     200 identity len=ok etag=strong ranges=bytes vary=- body=ok
style.css  gzip                     200 identity len=ok etag=strong ranges=bytes vary=- body=ok
-- validators, ranges, HEAD
the weak tag is the file's: true
If-None-Match weak  : 304 etag=weak coding=- vary=Accept-Encoding body=0
If-None-Match strong: 304 etag=weak coding=- vary=Accept-Encoding body=0
Range: 206 identity etag=strong vary=Accept-Encoding true
Range with If-Range of the weak tag: 200 identity
HEAD: 200 gzip length=the GET's
next on the same connection: 200 true
-- the worker's cache
3 more gzip requests: hits +3, misses +0
bytes kept: true
after the file changed: true true
-- curl
--http1.1                zstd  0 true
--http1.1                br    0 true
--http1.1                gzip  0 true
--http2-prior-knowledge  zstd  0 true
--http2-prior-knowledge  br    0 true
--http2-prior-knowledge  gzip  0 true
exit: 0
-- off
{"static_compress_max_size":0} 200 identity len=ok etag=strong ranges=bytes vary=- body=ok
{"gzip":false}                 200 identity len=ok etag=strong ranges=bytes vary=- body=ok
{"compression":[]}             200 identity len=ok etag=strong ranges=bytes vary=- body=ok
-- no cache: every request compresses
200 gzip len=ok etag=weak ranges=- vary=Accept-Encoding body=ok
200 gzip len=ok etag=weak ranges=- vary=Accept-Encoding body=ok
hits 0, misses 2, bytes 0
exit: 0
