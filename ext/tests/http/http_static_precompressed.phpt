--TEST--
HTTP: with static_precompressed, a static file is answered from its precompressed sibling (.zst, .br, .gz) that the request accepts, best first in compression's order: Content-Encoding, Vary, the sibling's length, ETag and ranges, the file's own type; 304 and HEAD; curl decodes it on HTTP/1.1 and HTTP/2; siblings that are directories, leave the root or are older than the file are passed over; off by default
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
require __DIR__ . '/static.inc';
$root = http_static_make();
$pub = "$root/pub";
$js = '';
for ($i = 0; $i < 400; $i++) {
    $js .= "export function f$i(a, b) { return a * $i + b; }\n";
}
file_put_contents("$pub/app.js", $js);
/* The siblings as a build step makes them: the zstd and brotli tools, and gzip from zlib. */
foreach ([['zstd', '-q', '-19', '-f', '-o', "$pub/app.js.zst", "$pub/app.js"],
        ['brotli', '-q', '11', '-f', '-o', "$pub/app.js.br", "$pub/app.js"]] as $cmd) {
    $p = proc_open($cmd, [], $pipes);
    if (proc_close($p) !== 0) {
        echo "cannot run ", $cmd[0], "\n";
    }
}
file_put_contents("$pub/app.js.gz", gzencode($js, 9));
/* style.css has only a .gz; data.json's .br is a directory; page.html's .zst leaves the root, its .gz does not. */
file_put_contents("$pub/style.css.gz", gzencode(file_get_contents("$pub/style.css"), 9));
mkdir("$pub/data.json.br");
symlink('../secret.txt', "$pub/page.html.zst");
file_put_contents("$pub/page.html.gz", gzencode(file_get_contents("$pub/page.html"), 9));

$file = fn (string $name) => file_get_contents("$pub/$name");
/* What came: status, coding, which file's bytes, type, Vary. */
function show(?array $r, callable $file, string $name): string
{
    if ($r === null) {
        return 'no response';
    }
    $coding = $r['headers']['content-encoding'][0] ?? 'identity';
    $which = '(no body)';
    foreach (['' => '', 'zstd' => '.zst', 'br' => '.br', 'gzip' => '.gz'] as $c => $suffix) {
        if ($r['body'] !== '' && @$file($name . $suffix) === $r['body']) {
            $which = "$name$suffix";
        }
    }
    if ($r['body'] !== '' && $which === '(no body)') {
        $which = 'OTHER BYTES';
    }
    return sprintf('%d %s %s %s vary=%s', $r['status'], $coding, $which, $r['headers']['content-type'][0] ?? '-',
        $r['headers']['vary'][0] ?? '-');
}

$handler = 'function ($req, $res) { $res->status(299)->end("handler"); }';
$srv = http_server_start($handler, ['document_root' => $pub, 'static_precompressed' => true, 'http2' => true]);
$cases = [
    ['/app.js', 'gzip, deflate, br, zstd'],
    ['/app.js', 'gzip, deflate, br'],
    ['/app.js', 'gzip'],
    ['/app.js', 'zstd;q=0.5, br;q=0.8'],
    ['/app.js', null],
    ['/app.js', 'deflate'],
    ['/style.css', 'gzip, deflate, br, zstd'],
    ['/style.css', 'br'],
    ['/data.json', 'br, gzip'],
    ['/page.html', 'zstd, gzip'],
    ['/script.js', 'zstd, br, gzip'],
];
foreach ($cases as [$path, $accept]) {
    $r = http_get($srv->port, $path, $accept === null ? [] : ["Accept-Encoding: $accept"]);
    printf("%-10s %-24s %s\n", $path, $accept ?? '(none)', show($r, $file, substr($path, 1)));
}

echo "-- validators, ranges, HEAD\n";
$plain = http_get($srv->port, '/app.js');
$zst = http_get($srv->port, '/app.js', ['Accept-Encoding: zstd']);
$br = http_get($srv->port, '/app.js', ['Accept-Encoding: br']);
echo "each its own ETag: ", var_export(count(array_unique([$plain['headers']['etag'][0], $zst['headers']['etag'][0],
    $br['headers']['etag'][0]])) === 3, true), "\n";
echo "lengths are the files': ", var_export((int) $zst['headers']['content-length'][0] === strlen($file('app.js.zst'))
    && (int) $br['headers']['content-length'][0] === strlen($file('app.js.br')), true), "\n";
$r = http_get($srv->port, '/app.js', ['Accept-Encoding: zstd', 'If-None-Match: ' . $zst['headers']['etag'][0]]);
echo "If-None-Match, the zstd ETag: ", $r['status'], ' ', $r['headers']['content-encoding'][0] ?? 'no coding', ' vary=',
    $r['headers']['vary'][0] ?? '-', "\n";
$r = http_get($srv->port, '/app.js', ['Accept-Encoding: br', 'If-None-Match: ' . $zst['headers']['etag'][0]]);
echo "If-None-Match, the zstd ETag, asking for br: ", show($r, $file, 'app.js'), "\n";
$r = http_get($srv->port, '/app.js', ['Accept-Encoding: br', 'Range: bytes=0-9']);
echo "Range of the br file: ", $r['status'], ' ', $r['headers']['content-encoding'][0] ?? '-', ' ',
    $r['headers']['content-range'][0] === 'bytes 0-9/' . strlen($file('app.js.br')) ? 'its Content-Range' : 'WRONG RANGE', ' ',
    var_export($r['body'] === substr($file('app.js.br'), 0, 10), true), "\n";
$c = new HttpTestConn($srv->port);
$c->send("HEAD /app.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
$r = $c->response(3, true);
echo "HEAD: ", $r['status'], ' ', $r['headers']['content-encoding'][0] ?? '-', ' ',
    var_export((int) $r['headers']['content-length'][0] === strlen($file('app.js.gz')), true), "\n";
$c->close();

echo "-- curl\n";
foreach ([['--http1.1'], ['--http2-prior-knowledge']] as $version) {
    foreach ([[], ['-H', 'Accept-Encoding: br'], ['-H', 'Accept-Encoding: gzip']] as $extra) {
        [$rc, $out] = http_curl(array_merge($version, ['--compressed', '-D', '-'], $extra,
            ["http://127.0.0.1:{$srv->port}/app.js"]));
        [$head, $body] = explode("\r\n\r\n", $out, 2) + [1 => ''];
        preg_match('/^content-encoding: (\S+)/mi', $head, $m);
        printf("%-24s %-5s %d %s\n", $version[0], $m[1] ?? 'identity', $rc, var_export($body === $js, true));
    }
}
http_report_stop($srv);

echo "-- off by default (and no compression on the fly, to see the file's own bytes)\n";
$srv = http_server_start($handler, ['document_root' => $pub, 'static_compress_max_size' => 0]);
echo show(http_get($srv->port, '/app.js', ['Accept-Encoding: zstd, br, gzip']), $file, 'app.js'), "\n";
http_report_stop($srv);

echo "-- siblings older than the file are passed over\n";
$srv = http_server_start($handler, ['document_root' => $pub, 'static_precompressed' => true,
    'static_compress_max_size' => 0]);
/* Set from the newest sibling: under valgrind they may be made seconds after the file. */
$newest = max(array_map('filemtime', ["$pub/app.js", "$pub/app.js.zst", "$pub/app.js.br", "$pub/app.js.gz"]));
touch("$pub/app.js.br", $newest + 10);
touch("$pub/app.js", $newest + 5);
clearstatcache();
foreach (['zstd, br, gzip', 'zstd, gzip'] as $accept) {
    printf("%-16s %s\n", $accept, show(http_get($srv->port, '/app.js', ["Accept-Encoding: $accept"]), $file, 'app.js'));
}
http_report_stop($srv);
?>
--EXPECT--
/app.js    gzip, deflate, br, zstd  200 zstd app.js.zst text/javascript; charset=utf-8 vary=Accept-Encoding
/app.js    gzip, deflate, br        200 br app.js.br text/javascript; charset=utf-8 vary=Accept-Encoding
/app.js    gzip                     200 gzip app.js.gz text/javascript; charset=utf-8 vary=Accept-Encoding
/app.js    zstd;q=0.5, br;q=0.8     200 br app.js.br text/javascript; charset=utf-8 vary=Accept-Encoding
/app.js    (none)                   200 identity app.js text/javascript; charset=utf-8 vary=Accept-Encoding
/app.js    deflate                  200 identity app.js text/javascript; charset=utf-8 vary=Accept-Encoding
/style.css gzip, deflate, br, zstd  200 gzip style.css.gz text/css; charset=utf-8 vary=Accept-Encoding
/style.css br                       200 identity style.css text/css; charset=utf-8 vary=Accept-Encoding
/data.json br, gzip                 200 identity data.json application/json vary=Accept-Encoding
/page.html zstd, gzip               200 gzip page.html.gz text/html; charset=utf-8 vary=Accept-Encoding
/script.js zstd, br, gzip           200 identity script.js text/javascript; charset=utf-8 vary=Accept-Encoding
-- validators, ranges, HEAD
each its own ETag: true
lengths are the files': true
If-None-Match, the zstd ETag: 304 no coding vary=Accept-Encoding
If-None-Match, the zstd ETag, asking for br: 200 br app.js.br text/javascript; charset=utf-8 vary=Accept-Encoding
Range of the br file: 206 br its Content-Range true
HEAD: 200 gzip true
-- curl
--http1.1                zstd  0 true
--http1.1                br    0 true
--http1.1                gzip  0 true
--http2-prior-knowledge  zstd  0 true
--http2-prior-knowledge  br    0 true
--http2-prior-knowledge  gzip  0 true
exit: 0
-- off by default (and no compression on the fly, to see the file's own bytes)
200 identity app.js text/javascript; charset=utf-8 vary=-
exit: 0
-- siblings older than the file are passed over
zstd, br, gzip   200 br app.js.br text/javascript; charset=utf-8 vary=Accept-Encoding
zstd, gzip       200 identity app.js text/javascript; charset=utf-8 vary=Accept-Encoding
exit: 0
