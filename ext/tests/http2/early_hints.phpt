--TEST--
HTTP/2: Response::earlyHints() sends each 103 as a HEADERS frame without END_STREAM before the response's own HEADERS, on each stream of a connection its own; curl reads them as interim responses; a handler that throws after its hints still gets its 500; the same over TLS (h2 by ALPN, and HTTP/1.1)
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_executable('/usr/bin/nghttp')) die('skip nghttp (nghttp2-client) is not installed');
--FILE--
<?php
require __DIR__ . '/h2.inc';
require __DIR__ . '/../http/tls.inc';
$handler = 'function ($req, $res) {
    $n = $req->query["n"] ?? "0";
    $res->earlyHints(["Link" => ["</$n.css>; rel=preload; as=style", "</$n.js>; rel=preload; as=script"]]);
    Rapier\Coroutine::sleep(0.01 * (3 - (int) $n));
    $res->earlyHints(["Link" => "</$n.woff2>; rel=preload; as=font"]);
    if ($req->path === "/throws") {
        throw new RuntimeException("after the hints");
    }
    $res->header("Content-Type", "text/plain");
    $res->end("page $n");
}';
$srv = http_server_start($handler, ['http2' => true, 'early_hints' => true]);
$p = $srv->port;

/* nghttp -v: each stream's frames in order, a HEADERS frame with its fields (date left out). */
$urls = array_map(fn ($n) => "http://127.0.0.1:$p/page?n=$n", [1, 2, 3]);
$out = (string) shell_exec(implode(' ', array_map('escapeshellarg', array_merge(['nghttp', '-v', '-n'], $urls))) . ' 2>&1');
$streams = [];
$fields = [];
foreach (explode("\n", $out) as $line) {
    if (preg_match('~\] recv \(stream_id=(\d+)\) (:?[^:\s]+): (.*)$~', $line, $m) && $m[2] !== 'date') {
        $fields[$m[1]][] = "$m[2]: $m[3]";
    } elseif (preg_match('~\] recv (HEADERS|DATA) frame <length=\d+, flags=0x([0-9a-f]+), stream_id=(\d+)>~', $line, $m)) {
        $end = hexdec($m[2]) & 1 ? ' END_STREAM' : '';
        $streams[$m[3]][] = $m[1] === 'HEADERS' ? "HEADERS$end [" . implode(', ', $fields[$m[3]] ?? []) . ']' : "DATA$end";
        unset($fields[$m[3]]);
    }
}
ksort($streams);
foreach ($streams as $frames) {
    echo implode("\n  ", $frames), "\n";
}

[$rc, $out] = h2_curl($p, '/throws?n=2', ['-D', '-']);
preg_match_all('~^HTTP/2 (\d+)~m', $out, $m);
echo "curl: $rc ", implode(' ', $m[1]), "\n";
http_report_stop($srv);

/* Over TLS, where browsers act on them: h2 chosen by ALPN, and HTTP/1.1. */
$srv = http_server_start($handler, tls_test_options(['http2' => true, 'early_hints' => true]));
foreach (['--http2', '--http1.1'] as $version) {
    [$rc, $out] = tls_curl($srv->port, '/page?n=1', [$version, '-D', '-']);
    preg_match_all('~^HTTP/[\d.]+ (\d+)|^link: (.*?)\r?$~mi', $out, $m);
    echo "TLS $version: $rc ", implode(' ', array_filter(array_map(fn ($s, $l) => $s !== '' ? $s : $l, $m[1], $m[2]))),
        ' ', substr($out, strrpos($out, "\n") + 1), "\n";
}
http_report_stop($srv);
?>
--EXPECTF--
HEADERS [:status: 103, link: </1.css>; rel=preload; as=style, link: </1.js>; rel=preload; as=script]
  HEADERS [:status: 103, link: </1.woff2>; rel=preload; as=font]
  HEADERS [:status: 200, content-type: text/plain, content-length: 6]
  DATA END_STREAM
HEADERS [:status: 103, link: </2.css>; rel=preload; as=style, link: </2.js>; rel=preload; as=script]
  HEADERS [:status: 103, link: </2.woff2>; rel=preload; as=font]
  HEADERS [:status: 200, content-type: text/plain, content-length: 6]
  DATA END_STREAM
HEADERS [:status: 103, link: </3.css>; rel=preload; as=style, link: </3.js>; rel=preload; as=script]
  HEADERS [:status: 103, link: </3.woff2>; rel=preload; as=font]
  HEADERS [:status: 200, content-type: text/plain, content-length: 6]
  DATA END_STREAM
curl: 0 103 103 500
exit: 0
stderr:
%ARuntimeException: after the hints%A
TLS --http2: 0 103 </1.css>; rel=preload; as=style </1.js>; rel=preload; as=script 103 </1.woff2>; rel=preload; as=font 200 page 1
TLS --http1.1: 0 103 </1.css>; rel=preload; as=style </1.js>; rel=preload; as=script 103 </1.woff2>; rel=preload; as=font 200 page 1
exit: 0
