--TEST--
HTTP/2: a body past body_buffer_size goes to a temporary file while it arrives, with content-length (curl -T) and without (a stream of DATA frames); one that stays small without content-length is kept in memory; ten streams of one connection each get their own file; a stream reset mid-body leaves no file behind
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/h2.inc';
$dir = sys_get_temp_dir() . '/rapier-h2-body-' . getmypid();
mkdir($dir);
$srv = http_server_start('function ($req, $res) {
    $file = $req->bodyFile();
    $res->json([
        "size" => $req->bodySize(),
        "spooled" => $file !== null,
        "in_tmp_dir" => $file !== null && dirname($file) === ini_get("upload_tmp_dir"),
        "md5" => md5(stream_get_contents($req->bodyStream())),
        "protocol" => $req->server()["SERVER_PROTOCOL"],
    ]);
}', ['http2' => true, 'body_buffer_size' => 65536, 'max_body_size' => 16 << 20], '', '', ['upload_tmp_dir' => $dir]);
$p = $srv->port;
$files = fn () => array_values(array_diff(scandir($dir), ['.', '..']));
$waitFor = function (callable $done) {
    $deadline = microtime(true) + http_test_timeout(5);
    while (!$done() && microtime(true) < $deadline) {
        usleep(20000);
    }
    return $done();
};
$describe = fn (array $j, string $content) => "{$j['protocol']} size {$j['size']}, spooled " . var_export($j['spooled'], true)
    . ($j['spooled'] ? ', in upload_tmp_dir ' . var_export($j['in_tmp_dir'], true) : '')
    . ', md5 ' . var_export($j['md5'] === md5($content), true);

$content = random_bytes(3 << 20);
file_put_contents($upload = "$dir.bin", $content);
[$rc, $out] = h2_curl($p, '/', ['-T', $upload]);
echo "curl -T 3 MiB: $rc, ", $describe(json_decode($out, true), $content), "\n";
unlink($upload);

/* No content-length: the size is known only at END_STREAM. */
$c = new H2TestConn($p);
$c->request(1, 'PUT', '/', [], false);
foreach (str_split(substr($content, 0, 1 << 20), 16384) as $i => $piece) {
    $c->data(1, $piece, $i === 63);
}
echo "1 MiB in DATA frames, no content-length: ", $describe(json_decode(h2_body($c->stream(1, 10)), true), substr($content, 0, 1 << 20)), "\n";
$c->request(3, 'PUT', '/', [], false);
$c->data(3, 'abc', false);
$c->data(3, 'def');
echo "6 bytes, no content-length: ", $describe(json_decode(h2_body($c->stream(3)), true), 'abcdef'), "\n";

/* Ten streams at once, interleaved: each body to its own file. */
$bodies = [];
for ($i = 0; $i < 10; $i++) {
    $bodies[5 + 2 * $i] = random_bytes(100000 + $i);
    $c->request(5 + 2 * $i, 'PUT', '/', [['content-length', (string) strlen($bodies[5 + 2 * $i])]], false);
}
foreach ([0, 50000] as $offset) {
    foreach ($bodies as $id => $body) {
        $c->data($id, substr($body, $offset, 50000), $offset !== 0 && strlen($body) <= 100000);
    }
}
foreach ($bodies as $id => $body) {
    if (strlen($body) > 100000) {
        $c->data($id, substr($body, 100000));
    }
}
$ok = 0;
foreach ($bodies as $id => $body) {
    $j = json_decode(h2_body($c->stream($id, 10)), true);
    $ok += $j['spooled'] && $j['size'] === strlen($body) && $j['md5'] === md5($body) ? 1 : 0;
}
echo "ten interleaved streams, each whole from its own file: $ok\n";
echo "files left: ", var_export($waitFor(fn () => $files() === []), true), "\n";

/* Reset mid-body: its file goes, the connection goes on. */
$c->request(25, 'PUT', '/', [], false);
$c->data(25, substr($content, 0, 1 << 20), false);
echo "reset: spooled first: ", var_export($waitFor(fn () => $files() !== []), true), "\n";
$c->send(h2_frame(H2_RST_STREAM, 0, 25, pack('N', 8)));
echo "reset: files left: ", var_export($waitFor(fn () => $files() === []), true), "\n";
$c->request(27, 'PUT', '/', [], false);
$c->data(27, 'after');
echo "after it, same connection: ", $describe(json_decode(h2_body($c->stream(27)), true), 'after'), "\n";
$c->close();
http_report_stop($srv);
rmdir($dir);
?>
--EXPECT--
curl -T 3 MiB: 0, HTTP/2.0 size 3145728, spooled true, in upload_tmp_dir true, md5 true
1 MiB in DATA frames, no content-length: HTTP/2.0 size 1048576, spooled true, in upload_tmp_dir true, md5 true
6 bytes, no content-length: HTTP/2.0 size 6, spooled false, md5 true
ten interleaved streams, each whole from its own file: 10
files left: true
reset: spooled first: true
reset: files left: true
after it, same connection: HTTP/2.0 size 5, spooled false, md5 true
exit: 0
