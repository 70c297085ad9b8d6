--TEST--
HTTP/2: a multipart upload on a stream is written to its temporary file in upload_tmp_dir while it arrives, as on HTTP/1.1; curl's -F upload; a malformed body gets 400 on its stream and the connection goes on; a body past max_body_size, a stream reset mid-upload and a client gone mid-upload leave no file behind
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/h2.inc';
/* Under valgrind every byte costs: a smaller upload, still six stream windows. */
$mib = http_test_valgrind() ? 6 : 20;
$dir = sys_get_temp_dir() . '/rapier-h2-upload-' . getmypid();
mkdir($dir);
$srv = http_server_start('function ($req, $res) {
    $f = $req->files["big"] ?? null;
    $res->json([
        "size" => $f["size"] ?? null,
        "error" => $f["error"] ?? null,
        "md5" => $f ? md5_file($f["tmp_name"]) : null,
        "in_tmp_dir" => $f ? dirname($f["tmp_name"]) === ini_get("upload_tmp_dir") : null,
        "field" => $req->post["note"] ?? null,
        "protocol" => $req->server()["SERVER_PROTOCOL"],
    ]);
}', ['http2' => true, 'max_body_size' => ($mib + 4) << 20], '', '', ['upload_tmp_dir' => $dir, 'upload_max_filesize' => '64M']);
$p = $srv->port;
$files = fn () => array_values(array_diff(scandir($dir), ['.', '..']));
$spooled = function () use ($dir, $files): int {
    clearstatcache();
    return array_sum(array_map(fn ($f) => @filesize("$dir/$f") ?: 0, $files()));
};
$waitFor = function (callable $done) {
    $deadline = microtime(true) + http_test_timeout(5);
    while (!$done() && microtime(true) < $deadline) {
        usleep(20000);
    }
    return $done();
};

$boundary = 'h2Boundary';
$content = str_repeat(random_bytes(1 << 20), $mib);
$head = "--$boundary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
    . "--$boundary\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n"
    . "Content-Type: application/octet-stream\r\n\r\n";
$tail = "\r\n--$boundary--\r\n";
$type = [['content-type', "multipart/form-data; boundary=$boundary"]];

/* Half of the body sent: the file is already on disk, at least that big. */
$c = new H2TestConn($p);
$c->request(1, 'POST', '/up', $type, false);
$half = ($mib >> 1) << 20;
$c->data(1, $head . substr($content, 0, $half), false);
echo "spooled while arriving: ", var_export($waitFor(fn () => $spooled() >= $half - (1 << 20)), true), "\n";
$c->data(1, substr($content, $half) . $tail);
$j = json_decode(h2_body($c->stream(1, 10)), true);
echo "{$j['protocol']}: size matches: ", var_export($j['size'] === strlen($content), true), ", error {$j['error']}, field {$j['field']}, in upload_tmp_dir: ",
    var_export($j['in_tmp_dir'], true), ", md5 matches: ", var_export($j['md5'] === md5($content), true), "\n";

/* Malformed: the closing boundary never comes. The connection goes on. */
$c->request(3, 'POST', '/up', $type, false);
$c->data(3, $head . "abc\r\n--wrong--\r\n");
echo "malformed: ", trim(h2_body($c->stream(3))), "\n";
$c->request(5, 'GET', '/after');
echo "after it, same connection: ", json_decode(h2_body($c->stream(5)), true)['protocol'], "\n";
$c->close();
echo "files left: ", var_export($waitFor(fn () => $files() === []), true), "\n";

/* curl's own multipart upload. */
file_put_contents($upload = "$dir.bin", substr($content, 0, 3 << 20));
[$rc, $out] = h2_curl($p, '/up', ['-F', 'note=from curl', '-F', "big=@$upload"]);
$j = json_decode($out, true);
echo "curl -F: $rc, size {$j['size']}, field {$j['field']}, in upload_tmp_dir: ", var_export($j['in_tmp_dir'], true),
    ", md5 matches: ", var_export($j['md5'] === md5_file($upload), true), "\n";
unlink($upload);

/* Past max_body_size while it is spooled: 413, and its file goes. */
$c = new H2TestConn($p);
$c->request(1, 'POST', '/up', $type, false);
$c->data(1, $head . $content . $content, false);
echo "too large: ", trim(h2_body($c->stream(1, 10))), "\n";
$c->close();
echo "files left: ", var_export($waitFor(fn () => $files() === []), true), "\n";

/* The client resets its stream mid-upload, then goes away mid-upload on another. */
$c = new H2TestConn($p);
$c->request(1, 'POST', '/up', $type, false);
$c->data(1, $head . substr($content, 0, 2 << 20), false);
echo "reset: spooled first: ", var_export($waitFor(fn () => $spooled() >= (1 << 20)), true), "\n";
$c->send(h2_frame(H2_RST_STREAM, 0, 1, pack('N', 8)));
echo "reset: files left: ", var_export($waitFor(fn () => $files() === []), true), "\n";
$c->request(3, 'POST', '/up', $type, false);
$c->data(3, $head . substr($content, 0, 2 << 20), false);
echo "gone: spooled first: ", var_export($waitFor(fn () => $spooled() >= (1 << 20)), true), "\n";
$c->close();
echo "gone: files left: ", var_export($waitFor(fn () => $files() === []), true), "\n";

[$rc, $out] = h2_curl($p, '/');
echo "still serving: ", json_decode($out, true)['protocol'], "\n";
http_report_stop($srv);
rmdir($dir);
?>
--EXPECT--
spooled while arriving: true
HTTP/2.0: size matches: true, error 0, field hello, in upload_tmp_dir: true, md5 matches: true
malformed: 400 Bad Request: missing closing boundary
after it, same connection: HTTP/2.0
files left: true
curl -F: 0, size 3145728, field from curl, in upload_tmp_dir: true, md5 matches: true
too large: 413 Content Too Large: the request body is larger than max_body_size
files left: true
reset: spooled first: true
reset: files left: true
gone: spooled first: true
gone: files left: true
still serving: HTTP/2.0
exit: 0
