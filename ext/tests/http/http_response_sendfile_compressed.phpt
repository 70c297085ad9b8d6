--TEST--
HTTP: Response::sendfile() of a whole file is compressed as a body would be (its type, Accept-Encoding, compression_min_length, up to static_compress_max_size), from the worker's cache of compressed files: the application's ETag made weak, its Accept-Ranges dropped; a part of a file, binary types and larger files go as they are; HEAD; curl decodes it on HTTP/1.1 and HTTP/2
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
$dir = sys_get_temp_dir() . '/rapier-sendfile-z-' . getmypid();
@mkdir($dir);
$csv = '';
for ($i = 0; $i < 2000; $i++) {
    $csv .= "$i,user$i,user$i@example.com,2026-11-26\n";
}
file_put_contents("$dir/export.csv", $csv);
file_put_contents("$dir/big.json", json_encode(array_fill(0, 9000, ['id' => 1, 'name' => 'a user'])));
file_put_contents("$dir/data.bin", str_repeat("\0binary", 1000));
register_shutdown_function(fn () => exec('rm -rf ' . escapeshellarg($dir)));

$srv = http_server_start('function ($req, $res) use ($dir, $server) {
    match ($req->path) {
        "/csv" => $res->header("ETag", "\"e1\"")->header("Accept-Ranges", "bytes")->sendfile("$dir/export.csv"),
        "/csv-part" => $res->sendfile("$dir/export.csv", 100, 2000),
        "/csv-from-0" => $res->sendfile("$dir/export.csv", 0, 2000),
        "/big" => $res->sendfile("$dir/big.json"),
        "/bin" => $res->sendfile("$dir/data.bin"),
        "/stats" => $res->json(array_intersect_key($server->stats(),
            array_flip(["static_compress_hits", "static_compress_misses"]))),
    };
}', ['http2' => true, 'static_compress_max_size' => 100000], '$dir = ' . var_export($dir, true) . ';');

function show(?array $r, string $want): string
{
    $h = $r['headers'];
    $coding = $h['content-encoding'][0] ?? 'identity';
    $body = $r['body'];
    if ($coding === 'gzip') {
        /* One gzip member, nothing after it. */
        $ctx = inflate_init(ZLIB_ENCODING_GZIP);
        $body = inflate_add($ctx, $r['body'], ZLIB_FINISH);
        $body = inflate_get_read_len($ctx) === strlen($r['body']) ? $body : 'TRAILING BYTES';
    }
    return sprintf('%d %s len=%s etag=%s ranges=%s vary=%s body=%s', $r['status'], $coding,
        (int) ($h['content-length'][0] ?? -1) === strlen($r['body']) ? 'ok' : 'WRONG', $h['etag'][0] ?? '-',
        $h['accept-ranges'][0] ?? '-', $h['vary'][0] ?? '-', $body === $want ? 'ok' : 'WRONG');
}

$big = file_get_contents("$dir/big.json");
foreach ([['/csv', 'gzip', $csv], ['/csv', null, $csv], ['/csv-part', 'gzip', substr($csv, 100, 2000)],
        ['/csv-from-0', 'gzip', substr($csv, 0, 2000)], ['/big', 'gzip', $big],
        ['/bin', 'gzip', file_get_contents("$dir/data.bin")]] as [$path, $accept, $want]) {
    $r = http_get($srv->port, $path, $accept === null ? [] : ["Accept-Encoding: $accept"]);
    printf("%-11s %-8s %s\n", $path, $accept ?? '(none)', show($r, $want));
}

$gz = http_get($srv->port, '/csv', ['Accept-Encoding: gzip']);
$c = new HttpTestConn($srv->port);
$c->send("HEAD /csv HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
$r = $c->response(3, true);
printf("HEAD: %d %s length=%s\n", $r['status'], $r['headers']['content-encoding'][0] ?? '-',
    $r['headers']['content-length'][0] === (string) strlen($gz['body']) ? "the GET's" : 'OTHER');
$c->close();
$s = json_decode(http_get($srv->port, '/stats')['body'], true);
printf("cache: %d misses (one per coding), %d hits\n", $s['static_compress_misses'], $s['static_compress_hits']);

foreach ([['--http1.1'], ['--http2-prior-knowledge']] as $version) {
    foreach ([[], ['-H', 'Accept-Encoding: br']] as $extra) {
        [$rc, $out] = http_curl(array_merge($version, ['--compressed', '-D', '-'], $extra,
            ["http://127.0.0.1:{$srv->port}/csv"]));
        [$head, $body] = explode("\r\n\r\n", $out, 2) + [1 => ''];
        preg_match('/^content-encoding: (\S+)/mi', $head, $m);
        printf("%-24s %-5s %d %s\n", $version[0], $m[1] ?? 'identity', $rc, var_export($body === $csv, true));
    }
}
http_report_stop($srv);
?>
--EXPECT--
/csv        gzip     200 gzip len=ok etag=W/"e1" ranges=- vary=Accept-Encoding body=ok
/csv        (none)   200 identity len=ok etag="e1" ranges=bytes vary=Accept-Encoding body=ok
/csv-part   gzip     200 identity len=ok etag=- ranges=- vary=- body=ok
/csv-from-0 gzip     200 identity len=ok etag=- ranges=- vary=- body=ok
/big        gzip     200 identity len=ok etag=- ranges=- vary=- body=ok
/bin        gzip     200 identity len=ok etag=- ranges=- vary=- body=ok
HEAD: 200 gzip length=the GET's
cache: 1 misses (one per coding), 2 hits
--http1.1                zstd  0 true
--http1.1                br    0 true
--http2-prior-knowledge  zstd  0 true
--http2-prior-knowledge  br    0 true
exit: 0
