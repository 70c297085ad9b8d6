--TEST--
HTTP: Response::sendfile() sends a file (whole, or a part) with its MIME type and length
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$dir = sys_get_temp_dir() . '/rapier-sendfile-' . getmypid();
@mkdir($dir);
$data = random_bytes(300000);
file_put_contents("$dir/data.bin", $data);
file_put_contents("$dir/page.css", "body{}");
$srv = http_server_start('function ($req, $res) use ($dir) {
    match ($req->path) {
        "/whole" => $res->sendfile("$dir/data.bin"),
        "/part" => $res->sendfile("$dir/data.bin", 1000, 10),
        "/tail" => $res->sendfile("$dir/data.bin", 299990),
        "/css" => $res->sendfile("$dir/page.css"),
        "/typed" => $res->header("Content-Type", "application/x-custom")->sendfile("$dir/page.css"),
    };
}', [], '$dir = ' . var_export($dir, true) . ';');
$r = http_get($srv->port, '/whole');
echo $r['status'], ' ', $r['headers']['content-type'][0], ' ', $r['headers']['content-length'][0], ' ', $r['body'] === $data ? 'same' : 'differs', "\n";
$r = http_get($srv->port, '/part');
echo $r['status'], ' ', $r['headers']['content-length'][0], ' ', $r['body'] === substr($data, 1000, 10) ? 'same' : 'differs', "\n";
$r = http_get($srv->port, '/tail');
echo $r['status'], ' ', $r['headers']['content-length'][0], ' ', $r['body'] === substr($data, 299990) ? 'same' : 'differs', "\n";
$r = http_get($srv->port, '/css');
echo $r['status'], ' ', $r['headers']['content-type'][0], ' ', $r['body'], "\n";
$r = http_get($srv->port, '/typed');
echo $r['status'], ' ', $r['headers']['content-type'][0], ' ', count($r['headers']['content-type']), "\n";
/* With curl, through keep-alive: two files in a row on one connection. */
[$code, $out] = http_curl(["http://127.0.0.1:{$srv->port}/whole", "http://127.0.0.1:{$srv->port}/css"]);
echo $code, ' ', $out === $data . "body{}" ? 'both same' : 'differs', "\n";
http_report_stop($srv);
unlink("$dir/data.bin");
unlink("$dir/page.css");
rmdir($dir);
?>
--EXPECT--
200 application/octet-stream 300000 same
200 10 same
200 10 same
200 text/css; charset=utf-8 body{}
200 application/x-custom 1
0 both same
exit: 0
