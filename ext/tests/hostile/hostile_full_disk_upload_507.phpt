--TEST--
Hostile: an upload that meets a full disk (upload_tmp_dir on a 1 MiB tmpfs) gets 507 before the handler runs and leaves no file, over HTTP/1.1 and on an HTTP/2 stream, multipart or a raw body spooled past body_buffer_size, or one kept by Request::bufferBody(); once there is room again, uploads succeed
--EXTENSIONS--
rapier
--SKIPIF--
<?php
/* The real thing: a small tmpfs, which takes root (CI and make test run as root on a fresh machine). */
$dir = sys_get_temp_dir() . '/rapier-skipif-tmpfs-' . getmypid();
@mkdir($dir);
exec('mount -t tmpfs -o size=64k tmpfs ' . escapeshellarg($dir) . ' 2>&1', $out, $rc);
if ($rc === 0) {
    exec('umount ' . escapeshellarg($dir));
}
rmdir($dir);
if ($rc !== 0) {
    die('skip cannot mount a tmpfs (needs root): ' . implode(' ', $out));
}
?>
--FILE--
<?php
require __DIR__ . '/hostile.inc';
require __DIR__ . '/../http2/h2.inc';
$tmp = sys_get_temp_dir() . '/rapier-hostile-full-disk-' . getmypid();
mkdir($tmp);
exec('mount -t tmpfs -o size=1m tmpfs ' . escapeshellarg($tmp), $out, $rc);
if ($rc !== 0) {
    exit("cannot mount the tmpfs\n");
}
register_shutdown_function(function () use ($tmp) {
    exec('umount ' . escapeshellarg($tmp));
    rmdir($tmp);
});
/* The handler reports each upload's error, size and whether its file holds exactly what was sent. */
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/ok") {
        $res->end("ok " . ($req->query["n"] ?? ""));
        return;
    }
    echo "handled {$req->path}\n";
    if ($req->path === "/raw") {
        $file = $req->bodyFile();
        $res->end("raw: {$req->bodySize()} bytes in its file, "
            . ($file !== null && file_get_contents($file) === str_repeat("r", $req->bodySize()) ? "intact" : "wrong"));
        return;
    }
    $got = [];
    foreach ($req->files as $name => $f) {
        $got[] = "$name: error {$f["error"]}, {$f["size"]} bytes, file "
            . (is_file($f["tmp_name"]) && file_get_contents($f["tmp_name"]) === str_repeat($name[0], $f["size"]) ? "intact" : "wrong");
    }
    $res->end(implode("; ", $got));
}', HOSTILE_KEEPALIVE + ['max_body_size' => 8 << 20, 'http2' => true, 'body_buffer_size' => 100000], '', '',
    ['upload_tmp_dir' => $tmp, 'upload_max_filesize' => '16M']);
$ctl = new HostileControl($srv->port);

function upload(int $port, array $files): string
{
    $b = 'FullDisk';
    $body = '';
    foreach ($files as $name => $size) {
        $body .= "--$b\r\nContent-Disposition: form-data; name=\"$name\"; filename=\"$name.bin\"\r\n\r\n"
            . str_repeat($name[0], $size) . "\r\n";
    }
    $body .= "--$b--\r\n";
    $r = http_request($port, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=$b\r\n"
        . "Content-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
    return $r ? "{$r['status']} " . trim($r['body']) : 'no response';
}

/* Uploads are removed when the Request is freed, right after the response: wait for it. */
function files_left(string $tmp): string
{
    $uploads = fn() => array_diff(array_map('basename', glob("$tmp/*")), ['filler']);
    for ($deadline = microtime(true) + http_test_timeout(2); $uploads() && microtime(true) < $deadline;) {
        usleep(10000);
    }
    return $uploads() ? implode(', ', $uploads()) : 'none';
}

/*
 * The same upload on an HTTP/2 stream (h2c). Not with curl: Debian 12's
 * curl 7.88 exits 92 when the answer comes whole with the upload unfinished
 * and the stream is then reset, as RFC 9113 8.1 lets a server do.
 */
function upload_h2(int $port, string $name, int $size): string
{
    $b = 'FullDisk';
    $c = new H2TestConn($port);
    $c->request(1, 'POST', '/upload', [['content-type', "multipart/form-data; boundary=$b"]], false);
    $c->data(1, "--$b\r\nContent-Disposition: form-data; name=\"$name\"; filename=\"$name.bin\"\r\n\r\n"
        . str_repeat($name, $size) . "\r\n--$b--\r\n");
    $frames = $c->stream(1);
    $c->close();
    return $frames ? trim(h2_body($frames)) : 'no answer';
}

$cases = [
    'one file that fits (200 KB)' => ['a' => 200000],
    'one file larger than the disk (3 MiB)' => ['b' => 3 << 20],
    'two files, the second does not fit (600 KB each)' => ['c' => 600000, 'd' => 600000],
    'two files that fit (400 KB each)' => ['e' => 400000, 'f' => 400000],
];
foreach ($cases as $what => $files) {
    echo "$what: ", upload($srv->port, $files), "; files left: ", files_left($tmp), "\n";
    $ctl->check($what);
}

/* The disk filled by someone else: the upload fails at once; freed again, it succeeds. */
file_put_contents("$tmp/filler", str_repeat('z', 900000));
echo "disk nearly full, 200 KB: ", upload($srv->port, ['g' => 200000]), "; files left: ", files_left($tmp), "\n";
$ctl->check('disk nearly full');
unlink("$tmp/filler");
echo "room again, 200 KB: ", upload($srv->port, ['h' => 200000]), "; files left: ", files_left($tmp), "\n";
$ctl->check('room again');

echo "HTTP/2, 3 MiB: ", upload_h2($srv->port, 'i', 3 << 20), "; files left: ", files_left($tmp), "\n";
$ctl->check('HTTP/2, 3 MiB');
echo "HTTP/2, 200 KB: ", upload_h2($srv->port, 'j', 200000), "; files left: ", files_left($tmp), "\n";
$ctl->check('HTTP/2, 200 KB');

/* A raw body past body_buffer_size goes to a file of its own, and meets the full disk the same way. */
$raw = fn(int $size) => http_request($srv->port, "PUT /raw HTTP/1.1\r\nHost: x\r\nContent-Length: $size\r\nConnection: close\r\n\r\n"
    . str_repeat('r', $size));
foreach (['raw body, 200 KB' => 200000, 'raw body, 3 MiB' => 3 << 20] as $what => $size) {
    $r = $raw($size);
    echo "$what: ", $r ? "{$r['status']} " . trim($r['body']) : 'no response', "; files left: ", files_left($tmp), "\n";
    $ctl->check($what);
}
$c = new H2TestConn($srv->port);
$c->request(1, 'PUT', '/raw', [], false);
$c->data(1, str_repeat('r', 3 << 20));
$frames = $c->stream(1);
$c->close();
echo "HTTP/2, raw body, 3 MiB: ", $frames ? trim(h2_body($frames)) : 'no answer', "; files left: ", files_left($tmp), "\n";
$ctl->check('HTTP/2, raw body, 3 MiB');

echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);

/* request_buffering off: Request::bufferBody() spools past body_buffer_size as the server does, and meets the disk the same way. */
$srv = http_server_start('function ($req, $res) {
    $req->bufferBody();
    $res->end("kept: {$req->bodySize()} bytes" . ($req->bodyFile() !== null ? " in its file" : ""));
}', ['request_buffering' => false, 'max_body_size' => 8 << 20, 'body_buffer_size' => 100000], '', '',
    ['upload_tmp_dir' => $tmp]);
foreach (['bufferBody(), 200 KB' => 200000, 'bufferBody(), 3 MiB' => 3 << 20] as $what => $size) {
    $r = http_request($srv->port, "PUT /kept HTTP/1.1\r\nHost: x\r\nContent-Length: $size\r\nConnection: close\r\n\r\n"
        . str_repeat('k', $size));
    echo "$what: ", $r ? "{$r['status']} " . trim($r['body']) : 'no response', "; files left: ", files_left($tmp), "\n";
}
$r = $srv->stop();
echo "exit: {$r['code']}, the uncaught exception logged: ", substr_count($r['err'], 'BodyException: The request body cannot be kept'), "\n";
?>
--EXPECTF--
one file that fits (200 KB): 200 a: error 0, 200000 bytes, file intact; files left: none
one file larger than the disk (3 MiB): 507 %s; files left: none
two files, the second does not fit (600 KB each): 507 %s; files left: none
two files that fit (400 KB each): 200 e: error 0, 400000 bytes, file intact; f: error 0, 400000 bytes, file intact; files left: none
disk nearly full, 200 KB: 507 %s; files left: none
room again, 200 KB: 200 h: error 0, 200000 bytes, file intact; files left: none
HTTP/2, 3 MiB: 507 %s; files left: none
HTTP/2, 200 KB: j: error 0, 200000 bytes, file intact; files left: none
raw body, 200 KB: 200 raw: 200000 bytes in its file, intact; files left: none
raw body, 3 MiB: 507 %s; files left: none
HTTP/2, raw body, 3 MiB: 507 %s; files left: none
control: all answered
reached the handler: ["handled \/upload","handled \/upload","handled \/upload","handled \/upload","handled \/raw"]
exit: 0
bufferBody(), 200 KB: 200 kept: 200000 bytes in its file; files left: none
bufferBody(), 3 MiB: 507 The request body cannot be kept in %s: no space left for the upload; files left: none
exit: 0, the uncaught exception logged: 1
