--TEST--
HTTP: a multipart upload is written to its temporary file while it arrives (not buffered in memory); a malformed body gets 400 and a client that disconnects mid-upload leaves no file behind
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$dir = sys_get_temp_dir() . '/rapier-upload-' . getmypid();
mkdir($dir);
$srv = http_server_start('function ($req, $res) {
    $f = $req->files["big"] ?? null;
    $res->json([
        "size" => $f["size"] ?? null,
        "error" => $f["error"] ?? null,
        "md5" => $f ? md5_file($f["tmp_name"]) : null,
        "field" => $req->post["note"] ?? null,
        "peak_mb" => intdiv(memory_get_peak_usage(), 1 << 20),
    ]);
}', ['max_body_size' => 64 << 20], '', '', ['upload_tmp_dir' => $dir, 'upload_max_filesize' => '64M']);
$files = fn() => array_values(array_diff(scandir($dir), ['.', '..']));

$boundary = 'xYzBoundary';
$data = random_bytes(1 << 20);
$content = str_repeat($data, 20);
$head = "--$boundary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
    . "--$boundary\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n"
    . "Content-Type: application/octet-stream\r\n\r\n";
$tail = "\r\n--$boundary--\r\n";
$length = strlen($head) + strlen($content) + strlen($tail);
$request = "POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=$boundary\r\n"
    . "Content-Length: $length\r\n\r\n";

/* Half of the body sent: the file is already on disk, at least that big. */
$c = new HttpTestConn($srv->port);
$c->send($request . $head . substr($content, 0, 10 << 20));
$deadline = microtime(true) + http_test_timeout(5);
do {
    usleep(20000);
    clearstatcache();
    $spooled = array_sum(array_map(fn($f) => filesize("$dir/$f"), $files()));
} while ($spooled < (9 << 20) && microtime(true) < $deadline);
echo "spooled while arriving: ", var_export($spooled >= (9 << 20), true), "\n";
$c->send(substr($content, 10 << 20) . $tail);
$r = $c->response();
$j = json_decode($r['body'], true);
echo "status {$r['status']}, size {$j['size']}, error {$j['error']}, field {$j['field']}, md5 matches: ",
    var_export($j['md5'] === md5($content), true), "\n";
echo "peak memory under 10 MiB for a 20 MiB upload: ", var_export($j['peak_mb'] < 10, true), "\n";
$c->close();
usleep(100000);
echo "files left after the request: ", count($files()), "\n";

/* Malformed: the closing boundary never comes. */
$bad = $head . "abc\r\n--wrong--\r\n";
$c = new HttpTestConn($srv->port);
$c->send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=$boundary\r\n"
    . "Content-Length: " . strlen($bad) . "\r\n\r\n" . $bad);
$r = $c->response();
echo "malformed: {$r['status']}, closed: ", var_export($c->closedWithin(2), true), "\n";
usleep(100000);
echo "files left: ", count($files()), "\n";

/* The client goes away mid-upload. */
$c = new HttpTestConn($srv->port);
$c->send($request . $head . substr($content, 0, 4 << 20));
$deadline = microtime(true) + http_test_timeout(5);
do {
    usleep(20000);
} while (count($files()) === 0 && microtime(true) < $deadline);
$c->close();
$deadline = microtime(true) + http_test_timeout(5);
do {
    usleep(20000);
} while (count($files()) > 0 && microtime(true) < $deadline);
echo "files left after a disconnect: ", count($files()), "\n";
echo "still serving: ", http_get($srv->port, '/')['status'], "\n";
http_report_stop($srv);
rmdir($dir);
?>
--EXPECT--
spooled while arriving: true
status 200, size 20971520, error 0, field hello, md5 matches: true
peak memory under 10 MiB for a 20 MiB upload: true
files left after the request: 0
malformed: 400, closed: true
files left: 0
files left after a disconnect: 0
still serving: 200
exit: 0
