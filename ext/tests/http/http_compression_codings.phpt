--TEST--
HTTP: responses are compressed with zstd, brotli or gzip: the acceptable coding with the highest q-value, the server's order (compression) breaking ties; whole and streamed bodies decode with the zstd and brotli tools and curl, on HTTP/1.1 and HTTP/2; the codings and levels are options
--EXTENSIONS--
rapier
--SKIPIF--
<?php
foreach (['zstd', 'brotli', 'curl'] as $tool) {
    if (trim((string) shell_exec("command -v $tool")) === '') {
        die("skip the $tool command is not installed (scripts/install-deps.sh installs it)");
    }
}
?>
--FILE--
<?php
require __DIR__ . '/server.inc';

/* Decodes a body with the coding's own command-line tool (gzip: PHP's zlib). */
function decode(string $coding, string $body): ?string
{
    if ($coding === 'gzip') {
        $out = @gzdecode($body);
        return $out === false ? null : $out;
    }
    $p = proc_open([$coding === 'br' ? 'brotli' : 'zstd', '-dc'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'],
        2 => ['pipe', 'w']], $pipes);
    fwrite($pipes[0], $body);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    return proc_close($p) === 0 ? $out : null;
}

function page(): string
{
    $out = '';
    for ($i = 0; $i < 300; $i++) {
        $out .= "<li>user $i, user$i@example.com</li>\n";
    }
    return $out;
}

/* What a response came as: its coding, whether it varies, and whether its body decodes to $expected, smaller. */
function describe(?array $r, string $expected): string
{
    if ($r === null) {
        return 'no response';
    }
    $coding = $r['headers']['content-encoding'][0] ?? 'identity';
    $body = $coding === 'identity' ? $r['body'] : decode($coding, $r['body']);
    $framing = isset($r['headers']['content-length']) ? 'length' : ($r['headers']['transfer-encoding'][0] ?? '?');
    return sprintf('%s %s vary=%s %s', $coding, $framing, $r['headers']['vary'][0] ?? '-',
        $body === $expected ? ($coding === 'identity' || strlen($r['body']) < strlen($expected) / 4 ? 'ok' : 'not smaller')
            : 'WRONG BODY');
}

$handler = 'function ($req, $res) {
    $page = "";
    for ($i = 0; $i < 300; $i++) {
        $page .= "<li>user $i, user$i@example.com</li>\n";
    }
    $res->header("Content-Type", "text/html; charset=utf-8");
    if (str_starts_with($req->path, "/tagged")) {
        $res->header("ETag", "\"v7\"")->header("Accept-Ranges", "bytes");
    }
    if ($req->path === "/tagged-stream") {
        $res->write($page);
        $res->end();
        return;
    }
    if ($req->path === "/leave") {
        /* Writes until the client has left: the encoder of an unfinished stream is let go of. */
        for ($i = 0; $i < 10000; $i++) {
            if (!$res->write($page)) {
                echo "leave: write returned false\n";
                return;
            }
            Rapier\Coroutine::sleep(0.001);
        }
        echo "leave: all written\n";
        return;
    }
    if ($req->path === "/stream") {
        foreach (str_split($page, 4000) as $part) {
            $res->write($part);
        }
        $res->end();
        return;
    }
    $res->end($page);
}';
$page = page();

echo "-- default: zstd, br, gzip\n";
$srv = http_server_start($handler, ['http2' => true]);
$accepts = [
    'gzip, deflate, br, zstd',                // Chrome, Edge, Firefox
    'gzip, deflate, br',                      // Safari
    'deflate, gzip, br, zstd',                // curl --compressed
    'gzip, deflate',
    'zstd;q=0.5, br;q=0.9, gzip',             // q decides before the server's order
    'zstd;q=0.5, br;q=0.4',
    'zstd;q=0, *',                            // "*" is what is not named
    'zstd;q=0, br;q=0, gzip;q=0, *;q=1',
    'deflate, identity',
    null,
];
foreach (['/', '/stream'] as $path) {
    foreach ($accepts as $accept) {
        $r = http_get($srv->port, $path, $accept === null ? [] : ["Accept-Encoding: $accept"]);
        printf("%-8s %-36s %s\n", $path, $accept ?? '(none)', describe($r, $page));
    }
}

/* Real clients decode what they asked for. */
$url = "http://127.0.0.1:{$srv->port}";
foreach ([[], ['-H', 'Accept-Encoding: br'], ['-H', 'Accept-Encoding: gzip']] as $extra) {
    foreach (['/', '/stream'] as $path) {
        foreach ([['--http1.1'], ['--http2-prior-knowledge']] as $version) {
            [$rc, $out] = http_curl(array_merge($version, ['--compressed', '-D', '-'], $extra, ["$url$path"]));
            [$head, $body] = explode("\r\n\r\n", $out, 2) + [1 => ''];
            preg_match('/^content-encoding: (\S+)/mi', $head, $m);
            printf("curl %-26s %-7s %-4s %s %s\n", implode(' ', $version), $path, $m[1] ?? 'identity',
                $rc, var_export($body === $page, true));
        }
    }
}

/* One keep-alive connection through the three codings and back, whole and streamed. */
$c = new HttpTestConn($srv->port);
$seen = [];
foreach (['zstd', 'br', 'gzip', 'identity', 'zstd'] as $coding) {
    foreach (['/', '/stream'] as $path) {
        $c->send("GET $path HTTP/1.1\r\nHost: x\r\nAccept-Encoding: $coding\r\n\r\n");
        $seen[] = describe($c->response(), $page);
    }
}
$c->close();
echo "one connection: ", implode(' | ', array_unique($seen)), "\n";

/* Clients that leave in the middle of a compressed stream. */
foreach (['zstd', 'br', 'gzip'] as $coding) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET /leave HTTP/1.1\r\nHost: x\r\nAccept-Encoding: $coding\r\n\r\n");
    $head = '';
    while (!str_contains($head, "\r\n\r\n") && ($more = $c->readSome()) !== '') {
        $head .= $more;
    }
    $c->close();
    echo "$coding stream left: ", str_contains($head, "Content-Encoding: $coding") ? 'encoded' : 'NOT ENCODED', ' ',
        var_export($srv->waitFor(str_repeat("leave: write returned false\n", $coding === 'zstd' ? 1 : ($coding === 'br' ? 2 : 3)), 10), true), "\n";
}
echo "served after: ", describe(http_get($srv->port, '/', ['Accept-Encoding: br']), $page), "\n";

/* The application's validators: a coding made here is not the bytes its strong ETag names, nor ranges of them. */
foreach (['/tagged', '/tagged-stream'] as $path) {
    foreach (['gzip', 'identity'] as $accept) {
        $r = http_get($srv->port, $path, ["Accept-Encoding: $accept"]);
        printf("%-14s %-8s %s etag=%s accept-ranges=%s\n", $path, $accept, describe($r, $page),
            $r['headers']['etag'][0] ?? '-', $r['headers']['accept-ranges'][0] ?? '-');
    }
}
[$rc, $out] = http_curl(['--http2-prior-knowledge', '--compressed', '-D', '-', "$url/tagged"]);
preg_match('/^etag: (\S+)/mi', $out, $m);
echo "HTTP/2, zstd: etag=", $m[1] ?? '-', ' accept-ranges=', preg_match('/^accept-ranges:/mi', $out) ? 'yes' : '-', "\n";
http_report_stop($srv);

echo "-- compression ['gzip', 'zstd'], highest levels\n";
$srv = http_server_start($handler, ['compression' => ['gzip', 'zstd'], 'zstd_level' => 19, 'brotli_level' => 11,
    'gzip_level' => 9]);
foreach (['gzip, deflate, br, zstd', 'br, zstd', 'br', 'gzip;q=0.5, zstd;q=0.6'] as $accept) {
    foreach (['/', '/stream'] as $path) {
        printf("%-8s %-26s %s\n", $path, $accept, describe(http_get($srv->port, $path, ["Accept-Encoding: $accept"]), $page));
    }
}
http_report_stop($srv);

echo "-- compression [], and compression_min_length\n";
$srv = http_server_start($handler, ['compression' => []]);
echo "none: ", describe(http_get($srv->port, '/', ['Accept-Encoding: gzip, br, zstd']), $page), "\n";
http_report_stop($srv);
$srv = http_server_start($handler, ['compression_min_length' => strlen($page) + 1]);
echo "below the minimum: ", describe(http_get($srv->port, '/', ['Accept-Encoding: zstd']), $page), "\n";
echo "streamed, no length to test: ", describe(http_get($srv->port, '/stream', ['Accept-Encoding: zstd']), $page), "\n";
http_report_stop($srv);
?>
--EXPECT--
-- default: zstd, br, gzip
/        gzip, deflate, br, zstd              zstd length vary=Accept-Encoding ok
/        gzip, deflate, br                    br length vary=Accept-Encoding ok
/        deflate, gzip, br, zstd              zstd length vary=Accept-Encoding ok
/        gzip, deflate                        gzip length vary=Accept-Encoding ok
/        zstd;q=0.5, br;q=0.9, gzip           gzip length vary=Accept-Encoding ok
/        zstd;q=0.5, br;q=0.4                 zstd length vary=Accept-Encoding ok
/        zstd;q=0, *                          br length vary=Accept-Encoding ok
/        zstd;q=0, br;q=0, gzip;q=0, *;q=1    identity length vary=Accept-Encoding ok
/        deflate, identity                    identity length vary=Accept-Encoding ok
/        (none)                               identity length vary=Accept-Encoding ok
/stream  gzip, deflate, br, zstd              zstd chunked vary=Accept-Encoding ok
/stream  gzip, deflate, br                    br chunked vary=Accept-Encoding ok
/stream  deflate, gzip, br, zstd              zstd chunked vary=Accept-Encoding ok
/stream  gzip, deflate                        gzip chunked vary=Accept-Encoding ok
/stream  zstd;q=0.5, br;q=0.9, gzip           gzip chunked vary=Accept-Encoding ok
/stream  zstd;q=0.5, br;q=0.4                 zstd chunked vary=Accept-Encoding ok
/stream  zstd;q=0, *                          br chunked vary=Accept-Encoding ok
/stream  zstd;q=0, br;q=0, gzip;q=0, *;q=1    identity chunked vary=Accept-Encoding ok
/stream  deflate, identity                    identity chunked vary=Accept-Encoding ok
/stream  (none)                               identity chunked vary=Accept-Encoding ok
curl --http1.1                  /       zstd 0 true
curl --http2-prior-knowledge    /       zstd 0 true
curl --http1.1                  /stream zstd 0 true
curl --http2-prior-knowledge    /stream zstd 0 true
curl --http1.1                  /       br   0 true
curl --http2-prior-knowledge    /       br   0 true
curl --http1.1                  /stream br   0 true
curl --http2-prior-knowledge    /stream br   0 true
curl --http1.1                  /       gzip 0 true
curl --http2-prior-knowledge    /       gzip 0 true
curl --http1.1                  /stream gzip 0 true
curl --http2-prior-knowledge    /stream gzip 0 true
one connection: zstd length vary=Accept-Encoding ok | zstd chunked vary=Accept-Encoding ok | br length vary=Accept-Encoding ok | br chunked vary=Accept-Encoding ok | gzip length vary=Accept-Encoding ok | gzip chunked vary=Accept-Encoding ok | identity length vary=Accept-Encoding ok | identity chunked vary=Accept-Encoding ok
zstd stream left: encoded true
br stream left: encoded true
gzip stream left: encoded true
served after: br length vary=Accept-Encoding ok
/tagged        gzip     gzip length vary=Accept-Encoding ok etag=W/"v7" accept-ranges=-
/tagged        identity identity length vary=Accept-Encoding ok etag="v7" accept-ranges=bytes
/tagged-stream gzip     gzip chunked vary=Accept-Encoding ok etag=W/"v7" accept-ranges=-
/tagged-stream identity identity chunked vary=Accept-Encoding ok etag="v7" accept-ranges=bytes
HTTP/2, zstd: etag=W/"v7" accept-ranges=-
exit: 0
-- compression ['gzip', 'zstd'], highest levels
/        gzip, deflate, br, zstd    gzip length vary=Accept-Encoding ok
/stream  gzip, deflate, br, zstd    gzip chunked vary=Accept-Encoding ok
/        br, zstd                   zstd length vary=Accept-Encoding ok
/stream  br, zstd                   zstd chunked vary=Accept-Encoding ok
/        br                         identity length vary=Accept-Encoding ok
/stream  br                         identity chunked vary=Accept-Encoding ok
/        gzip;q=0.5, zstd;q=0.6     zstd length vary=Accept-Encoding ok
/stream  gzip;q=0.5, zstd;q=0.6     zstd chunked vary=Accept-Encoding ok
exit: 0
-- compression [], and compression_min_length
none: identity length vary=- ok
exit: 0
below the minimum: identity length vary=- ok
streamed, no length to test: zstd chunked vary=Accept-Encoding ok
exit: 0
