--TEST--
HTTP/2: Response::trailer() ends a stream with a trailing HEADERS frame after its DATA (a whole body, a streamed one, a file, gzip), or right after the response's HEADERS when there is no body (gRPC's shape); END_STREAM only on the trailers; none on HEAD; ten streams of one connection each get their own
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_executable('/usr/bin/nghttp')) die('skip nghttp (nghttp2-client) is not installed');
--FILE--
<?php
require __DIR__ . '/h2.inc';
$file = sys_get_temp_dir() . '/rapier-h2-trailers-' . getmypid() . '.txt';
file_put_contents($file, str_repeat('file body ', 10000));
$srv = http_server_start('function ($req, $res) {
    if ($req->path !== "/empty") {
        $res->header("Content-Type", "text/plain");
    }
    switch ($req->path) {
        case "/whole":
            $res->trailer("X-Checksum", md5("hello"))->trailer("Grpc-Status", "0");
            $res->end("hello");
            return;
        case "/stream":
            $res->write("one;");
            Rapier\Coroutine::sleep(0.01);
            $res->write("two;");
            $res->trailer("X-Parts", "2");
            $res->end();
            return;
        case "/empty":
            $res->header("Content-Type", "application/grpc");
            $res->trailer("grpc-status", "12")->trailer("grpc-message", "unknown%20method");
            $res->end();
            return;
        case "/file":
            $res->trailer("X-File", "yes");
            $res->sendfile(' . var_export($file, true) . ');
            return;
        case "/gzip":
            $res->trailer("X-Gzip", "after");
            $res->end(str_repeat("compressible text ", 500));
            return;
        case "/id":
            Rapier\Coroutine::sleep(0.01 * (int) $req->query["n"]);
            $res->trailer("X-Id", $req->query["n"]);
            $res->end("id " . $req->query["n"]);
            return;
    }
    $res->end("plain");
}', ['http2' => true]);
$p = $srv->port;

/* nghttp -v: the frames received on each stream, in order, with the fields of each HEADERS frame; streams by id, so in the order of $paths. */
function frames(int $port, array $paths, array $args = []): array
{
    $urls = array_map(fn ($path) => "http://127.0.0.1:$port$path", $paths);
    [$rc, $out] = [0, shell_exec(implode(' ', array_map('escapeshellarg', array_merge(['nghttp', '-v', '-n'], $args, $urls))) . ' 2>&1')];
    $streams = [];
    $fields = [];
    foreach (explode("\n", (string) $out) as $line) {
        if (preg_match('~\] recv \(stream_id=(\d+)\) (:?[^:\s]+): (.*)$~', $line, $m)) {
            $fields[$m[1]][] = "$m[2]: $m[3]";
        } elseif (preg_match('~\] recv (HEADERS|DATA) frame <length=(\d+), flags=0x([0-9a-f]+), stream_id=(\d+)>~', $line, $m)) {
            $end = hexdec($m[3]) & 1 ? ' END_STREAM' : '';
            $streams[$m[4]][] = $m[1] === 'HEADERS' ? 'HEADERS' . $end . ' [' . implode(', ', $fields[$m[4]] ?? []) . ']'
                : "DATA$end";
            unset($fields[$m[4]]);
        }
    }
    ksort($streams);
    return array_values(array_map(fn ($frames) => implode(' | ', $frames), $streams));
}
/* However many DATA frames a body took (gzip, frame sizes), and the response head's fields as its status. */
function shape(string $stream): string
{
    $stream = preg_replace('~\[:status: (\d+)[^\]]*\]~', '[$1]', $stream);
    return preg_replace('~(DATA \| )+~', 'DATA+ | ', $stream);
}

foreach (['/whole', '/stream', '/empty', '/file', '/plain'] as $path) {
    echo $path, ': ', shape(frames($p, [$path])[0] ?? 'none'), "\n";
}
/* No content-length with trailers: HTTP/2 frames the body without it, and some clients (curl) stop reading at it. */
$head = frames($p, ['/empty'])[0] ?? '';
echo "/empty's head: ", substr($head, 0, strpos($head, ']') + 1), "\n";
echo '/gzip: ', shape(frames($p, ['/gzip'], ['-H', 'accept-encoding: gzip'])[0] ?? 'none'), "\n";
echo 'HEAD: ', shape(frames($p, ['/whole'], ['-H', ':method: HEAD'])[0] ?? 'none'), "\n";

/* The bodies themselves, through another client. */
[$rc, $out] = h2_curl($p, '/whole');
echo "curl: $rc $out\n";
[$rc, $out] = h2_curl($p, '/file');
echo "curl file: $rc ", var_export($out === file_get_contents($file), true), "\n";
[$rc, $out] = h2_curl($p, '/gzip', ['--compressed']);
echo "curl gzip: $rc ", var_export($out === str_repeat("compressible text ", 500), true), "\n";

/* Ten streams of one connection, answered out of order: each stream's trailers are its own. */
$paths = [];
for ($n = 9; $n >= 0; $n--) {
    $paths[] = "/id?n=$n";
}
$ok = 0;
foreach (frames($p, $paths) as $i => $stream) {
    $ok += preg_match('~^HEADERS \[:status: 200[^\]]*\] \| DATA \| HEADERS END_STREAM \[x-id: (\d)\]$~', $stream, $m) === 1
        && (int) $m[1] === 9 - $i;
}
echo "ten streams with their own trailers: $ok\n";
http_report_stop($srv);
@unlink($file);
?>
--EXPECTF--
/whole: HEADERS [200] | DATA+ | HEADERS END_STREAM [x-checksum: 5d41402abc4b2a76b9719d911017c592, grpc-status: 0]
/stream: HEADERS [200] | DATA+ | HEADERS END_STREAM [x-parts: 2]
/empty: HEADERS [200] | HEADERS END_STREAM [grpc-status: 12, grpc-message: unknown%20method]
/file: HEADERS [200] | DATA+ | HEADERS END_STREAM [x-file: yes]
/plain: HEADERS [200] | DATA END_STREAM
/empty's head: HEADERS [:status: 200, content-type: application/grpc, date: %s]
/gzip: HEADERS [200] | DATA+ | HEADERS END_STREAM [x-gzip: after]
HEAD: HEADERS END_STREAM [200]
curl: 0 hello
curl file: 0 true
curl gzip: 0 true
ten streams with their own trailers: 10
exit: 0
