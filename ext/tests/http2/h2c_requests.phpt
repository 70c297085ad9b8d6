--TEST--
HTTP/2 with prior knowledge (h2c): JSON, a form POST, $_SERVER's protocol, cookies joined, Host from :authority, HEAD, 204, a streamed body, 1 MB whole and gzipped, sendfile(), a static file and its range, a redirect, an unknown method; HTTP/1.1 still served on the same port; a preface, and an HTTP/1.1 request starting like one, split across reads; the access log says HTTP/2.0
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/h2.inc';
$dir = sys_get_temp_dir() . '/rapier-h2-' . getmypid();
@mkdir("$dir/www", 0777, true);
file_put_contents("$dir/www/static.txt", str_repeat('0123456789', 100));
file_put_contents("$dir/file.bin", str_repeat('abcdefgh', 4096));
$log = "$dir/access.log";
$srv = http_server_start('function ($req, $res) {
    switch ($req->path) {
        case "/vars":
            $s = $req->server();
            $res->json([$s["SERVER_PROTOCOL"], $req->method, $req->header("host"), $req->cookies, $req->post, $req->query]);
            return;
        case "/empty":
            $res->status(204);
            $res->end();
            return;
        case "/stream":
            $res->header("Content-Type", "text/plain");
            for ($i = 0; $i < 3; $i++) {
                $res->write("part $i\n");
                Rapier\Coroutine::sleep(0.01);
            }
            $res->end("end\n");
            return;
        case "/big":
            $res->header("Content-Type", "text/plain");
            $res->end(str_repeat("0123456789abcdef", 65536));
            return;
        case "/file":
            $res->sendfile($req->query["f"]);
            return;
        case "/go":
            $res->redirect("/vars");
            return;
    }
    $res->header("X-Custom", "Value");
    $res->json(["path" => $req->path]);
}', ['http2' => true, 'document_root' => "$dir/www", 'access_log' => $log]);
$p = $srv->port;

[$rc, $out] = h2_curl($p, '/hello', ['-i']);
$head = strtolower(substr($out, 0, strpos($out, "\r\n\r\n")));
echo "$rc ", trim(strtok($head, "\r\n")), "\n";
echo str_contains($head, "\r\ncontent-type: application/json") ? "type" : "no type", ' ';
echo str_contains($head, "\r\nx-custom: value") ? "custom" : "no custom", ' ';
echo preg_match('~\r\ncontent-length: (\d+)~', $head, $m) ? "length $m[1]" : 'no length', ' ';
echo str_contains($head, "\r\ndate: ") ? "date" : "no date", ' ';
echo str_contains($head, "connection") || str_contains($head, "transfer-encoding") ? "HOP-BY-HOP\n" : "\n";
echo substr($out, strpos($out, "\r\n\r\n") + 4), "\n";

[$rc, $out] = h2_curl($p, '/vars?x=1&y[]=2', ['-d', 'a=1&b=two', '-H', 'Cookie: c1=v1', '-H', 'Cookie: c2=v2']);
echo "$rc $out\n";
[$rc, $out] = h2_curl($p, '/hello', ['-I']);
echo "$rc ", trim(strtok($out, "\r\n")), ' ', preg_match('~content-length: (\d+)~i', $out, $m) ? "length $m[1]" : 'no length', "\n";
[$rc, $out] = h2_curl($p, '/empty', ['-i']);
echo "$rc ", trim(strtok($out, "\r\n")), ' ', json_encode(substr($out, strpos($out, "\r\n\r\n") + 4)), "\n";
[$rc, $out] = h2_curl($p, '/stream', ['-i']);
echo "$rc ", str_contains(strtolower($out), 'content-length') ? 'LENGTH ' : '', json_encode(substr($out, strpos($out, "\r\n\r\n") + 4)), "\n";
[$rc, $out] = h2_curl($p, '/big');
echo "$rc ", strlen($out), ' ', md5($out) === md5(str_repeat("0123456789abcdef", 65536)) ? 'same' : 'DIFFERENT', "\n";
[$rc, $out] = h2_curl($p, '/big', ['--compressed', '-w', ' %{size_download}']);
echo "$rc gzip ", strlen($out) > 1048576 && (int) substr($out, strrpos($out, ' ') + 1) < 100000 ? 'compressed' : 'NOT COMPRESSED', "\n";
[$rc, $out] = h2_curl($p, '/file?f=' . urlencode("$dir/file.bin"));
echo "$rc sendfile ", $out === str_repeat('abcdefgh', 4096) ? 'same' : 'DIFFERENT', "\n";
[$rc, $out] = h2_curl($p, '/static.txt', ['-i', '-H', 'Range: bytes=10-19']);
echo "$rc ", trim(strtok($out, "\r\n")), ' ', json_encode(substr($out, strpos($out, "\r\n\r\n") + 4)), "\n";
[$rc, $out] = h2_curl($p, '/static.txt');
echo "$rc static ", strlen($out), "\n";
[$rc, $out] = h2_curl($p, '/go', ['-i']);
echo "$rc ", trim(strtok($out, "\r\n")), ' ', preg_match('~location: (\S+)~i', $out, $m) ? $m[1] : 'no location', "\n";
[$rc, $out] = h2_curl($p, '/x', ['-X', 'FROBNICATE', '-i']);
echo "$rc ", trim(strtok($out, "\r\n")), "\n";
[$rc, $out] = http_curl(['-i', "http://127.0.0.1:$p/hello"]);
echo "$rc ", strtok($out, "\r\n"), "\n";
/* A preface, and an HTTP/1.1 request beginning like one, each arriving in two reads. */
$c = new H2TestConn($p, false);
$c->send(substr(RAPIER_H2_TEST_PREFACE, 0, 5));
usleep(100000);
$c->send(substr(RAPIER_H2_TEST_PREFACE, 5) . h2_frame(H2_SETTINGS, 0, 0));
$c->request(1, 'GET', '/split');
echo "split preface: ", h2_body($c->stream(1)), "\n";
$c->close();
$c = new HttpTestConn($p);
$c->send('P');
usleep(100000);
$c->send("OST /split HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi");
$r = $c->response(5);
echo "split POST: {$r['version']} {$r['status']} {$r['body']}\n";
http_report_stop($srv);
foreach (file($log) as $line) {
    if (preg_match('~"(\S+) (\S+) (HTTP/\S+)" (\d+)~', $line, $m)) {
        echo "$m[1] $m[2] $m[3] $m[4]\n";
    }
}
@unlink("$dir/www/static.txt");
@rmdir("$dir/www");
@unlink("$dir/file.bin");
@unlink($log);
@rmdir($dir);
?>
--EXPECTF--
0 http/2 200
type custom length 18 date 
{"path":"\/hello"}
0 ["HTTP\/2.0","POST","127.0.0.1:%d",{"c1":"v1","c2":"v2"},{"a":"1","b":"two"},{"x":"1","y":["2"]}]
0 HTTP/2 200 length 18
0 HTTP/2 204 ""
0 "part 0\npart 1\npart 2\nend\n"
0 1048576 same
0 gzip compressed
0 sendfile same
0 HTTP/2 206 "0123456789"
0 static 1000
0 HTTP/2 302 /vars
0 HTTP/2 501
0 HTTP/1.1 200 OK
split preface: {"path":"\/split"}
split POST: HTTP/1.1 200 {"path":"\/split"}
exit: 0
GET /hello HTTP/2.0 200
POST /vars?x=1&y[]=2 HTTP/2.0 200
HEAD /hello HTTP/2.0 200
GET /empty HTTP/2.0 204
GET /stream HTTP/2.0 200
GET /big HTTP/2.0 200
GET /big HTTP/2.0 200
GET /file?f=%s HTTP/2.0 200
GET /static.txt HTTP/2.0 206
GET /static.txt HTTP/2.0 200
GET /go HTTP/2.0 302
FROBNICATE /x HTTP/2.0 501
GET /hello HTTP/1.1 200
GET /split HTTP/2.0 200
POST /split HTTP/1.1 200
