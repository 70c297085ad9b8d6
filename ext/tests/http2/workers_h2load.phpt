--TEST--
HTTP/2 under load from another implementation: h2load (nghttp2's client) sends 2,000 requests on 4 connections of 20 streams each, over TLS, to two workers; every answer is a 200 with the right body length, and the workers serve on
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_executable('/usr/bin/h2load')) die('skip h2load missing (apt-get install nghttp2-client)');
--FILE--
<?php
require __DIR__ . '/../http/tls.inc';
require __DIR__ . '/h2.inc';
$srv = http_server_start('function ($req, $res) {
    Rapier\Coroutine::sleep(0.001);
    $res->json(["id" => (int) ($req->query["id"] ?? 0), "pad" => str_repeat("p", 100)]);
}', tls_test_options(['http2' => true, 'workers' => 2]));
$n = http_test_valgrind() ? 200 : 2000;
$h2load = function (string $url) use ($n): void {
    $p = proc_open(['h2load', '-n', (string) $n, '-c', '4', '-m', '20', $url], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    stream_get_contents($pipes[2]);
    proc_close($p);
    preg_match('~requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored~', $out, $m);
    preg_match('~status codes: (\d+) 2xx~', $out, $s);
    echo ($m[1] ?? '?') == $n && ($m[3] ?? '?') == $n && ($s[1] ?? '?') == $n ? "all succeeded" : "FAILED:\n$out", ', ',
        "failed {$m[4]}, errored {$m[5]}\n";
};
$h2load("https://127.0.0.1:{$srv->port}/?id=7");
[$rc, $out] = tls_curl($srv->port, '/?id=3', ['--http2']);
echo "$rc ", json_decode($out, true)['id'], ' ', strlen($out), "\n";
echo "exit: ", $srv->stop()['code'], "\n";
?>
--EXPECT--
all succeeded, failed 0, errored 0
0 3 117
exit: 0
