--TEST--
Hostile: malformed multipart bodies get 400 before the handler runs, path-traversing names are reduced, and no temporary file is ever left behind
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$tmp = sys_get_temp_dir() . '/rapier-hostile-uploads-' . getmypid();
mkdir($tmp);
register_shutdown_function(function () use ($tmp) {
    array_map('unlink', glob("$tmp/*"));
    rmdir($tmp);
});
/* The handler reports what it got, with each upload's tmp_name replaced by whether the file exists. */
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/ok") {
        $res->end("ok " . ($req->query["n"] ?? ""));
        return;
    }
    echo "handled {$req->path}\n";
    $files = $req->files;
    array_walk_recursive($files, function (&$v, $k) {
        if ($k === "tmp_name") {
            $v = $v === "" ? "" : (is_file($v) ? "exists" : "missing");
        }
    });
    $post = $req->post;
    if (isset($post["p"])) {
        $post["p"] = count($post["p"]) . " values";
    }
    $res->end(json_encode([$post, $files]));
}', HOSTILE_KEEPALIVE, '', '', ['upload_tmp_dir' => $tmp]);
$ctl = new HostileControl($srv->port);
$b = 'XyZ';
$part = fn(string $disposition, string $data, string $fields = '') =>
    "--$b\r\nContent-Disposition: $disposition\r\n$fields\r\n$data\r\n";
$cases = [
    'no closing boundary, a file cut short' => $part('form-data; name="a"', '1')
        . $part('form-data; name="f"; filename="x.txt"', str_repeat('x', 100000)),
    '1001 parts' => str_repeat($part('form-data; name="p[]"', 'v'), 1001) . "--$b--\r\n",
    'a part header over 8 KiB' => $part('form-data; name="a"', '1')
        . $part('form-data; name="b"', '2', 'X-Big: ' . str_repeat('h', 9000) . "\r\n") . "--$b--\r\n",
    'a part without a name' => $part('form-data; name="a"', '1') . $part('form-data', '2') . "--$b--\r\n",
    'a part that is not form-data' => $part('attachment; name="a"', '1') . "--$b--\r\n",
    'two names' => $part('form-data; name="a"; name="b"', '1') . "--$b--\r\n",
    'a bare LF after a complete file' => $part('form-data; name="f"; filename="a.bin"', str_repeat('z', 100000))
        . "--$b\r\nContent-Disposition: form-data; name=\"g\"\nX: y\r\n\r\nx\r\n--$b--\r\n",
    'traversal in filenames' => $part('form-data; name="f"; filename="../../etc/passwd"', 'x')
        . $part('form-data; name="g"; filename="..\\\\..\\\\win.ini"', 'y')
        . $part('form-data; name="h"; filename=".."', 'z') . "--$b--\r\n",
    'bracket abuse in names' => $part('form-data; name="a[[["', '1') . $part('form-data; name="b]"', '2')
        . $part('form-data; name="[]"', '3') . $part('form-data; name="c[x][]"', '4')
        . $part('form-data; name="d' . str_repeat('[e]', 80) . '"', '5') . "--$b--\r\n",
];
/* Uploads are removed when the Request is freed, right after the response: wait for it. */
function files_left(string $tmp): int
{
    for ($deadline = microtime(true) + http_test_timeout(2); glob("$tmp/*") && microtime(true) < $deadline;) {
        usleep(10000);
    }
    return count(glob("$tmp/*"));
}
$head = fn(string $body) => "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=$b\r\n"
    . "Content-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n";
foreach ($cases as $what => $body) {
    $r = http_request($srv->port, $head($body) . $body);
    echo "$what: ", $r ? "{$r['status']} " . trim($r['body']) : 'no response', ", temporary files left: ", files_left($tmp), "\n";
    $ctl->check($what);
}
/* A client that leaves in the middle of a file part. */
$body = $part('form-data; name="f"; filename="big.bin"', str_repeat('x', 1 << 20)) . "--$b--\r\n";
$c = new HttpTestConn($srv->port);
$c->send($head($body) . substr($body, 0, 300000));
usleep(100000);
$c->close();
echo "gone mid-upload: temporary files left: ", files_left($tmp), "\n";
$ctl->check('gone mid-upload');
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
no closing boundary, a file cut short: 400 400 Bad Request: missing closing boundary, temporary files left: 0
1001 parts: 400 400 Bad Request: too many parts, temporary files left: 0
a part header over 8 KiB: 400 400 Bad Request: part header too large, temporary files left: 0
a part without a name: 400 400 Bad Request: part without a form-data name, temporary files left: 0
a part that is not form-data: 400 400 Bad Request: part is not form-data, temporary files left: 0
two names: 400 400 Bad Request: duplicate Content-Disposition parameter, temporary files left: 0
a bare LF after a complete file: 400 400 Bad Request: bare LF or NUL in a part header, temporary files left: 0
traversal in filenames: 200 [[],{"f":{"name":"passwd","full_path":"..\/..\/etc\/passwd","type":"","tmp_name":"exists","error":0,"size":1},"g":{"name":"win.ini","full_path":"..\\..\\win.ini","type":"","tmp_name":"exists","error":0,"size":1},"h":{"name":"","full_path":"..","type":"","tmp_name":"exists","error":0,"size":1}}], temporary files left: 0
bracket abuse in names: 200 [{"a___":"1","b]":"2","c":{"x":["4"]}},[]], temporary files left: 0
gone mid-upload: temporary files left: 0
control: all answered
reached the handler: ["handled \/upload","handled \/upload"]
exit: 0
