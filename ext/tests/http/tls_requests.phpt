--TEST--
HTTPS: requests over TLS 1.3 and 1.2 (curl and PHP's TLS streams), $_SERVER's HTTPS variables, keep-alive and pipelining on one connection, a request body of 3 MB, a response of 1 MB whole, streamed and gzipped, a static file and sendFile() through TLS; plain HTTP on the port gets a 400 in the clear
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$dir = tls_test_files()['dir'];
mkdir("$dir/www");
$file = random_bytes(3 << 20);
file_put_contents("$dir/www/file.bin", $file);
$srv = http_server_start('function ($req, $res) {
    switch ($req->path) {
        case "/vars":
            $s = $req->server();
            $res->json([$s["HTTPS"] ?? null, $s["REQUEST_SCHEME"], $s["SSL_PROTOCOL"] ?? null, isset($s["SSL_CIPHER"])]);
            return;
        case "/echo":
            $res->end(md5($req->body()) . " " . strlen($req->body()));
            return;
        case "/big":
            $res->header("Content-Type", "text/plain");
            $res->end(str_repeat("0123456789abcdef", 65536));
            return;
        case "/stream":
            for ($i = 0; $i < 64; $i++) {
                $res->write(str_repeat(chr(65 + $i % 26), 16384));
            }
            $res->end();
            return;
        case "/sendfile":
            $res->sendFile($req->query["f"]);
            return;
    }
    $res->end("hello " . $req->path);
}', tls_test_options(['document_root' => "$dir/www", 'gzip' => true]));

[$rc, $out] = tls_curl($srv->port, '/vars');
echo "TLS 1.3: $rc $out\n";
[$rc, $out] = tls_curl($srv->port, '/vars', ['--tlsv1.2', '--tls-max', '1.2']);
echo "TLS 1.2: $rc $out\n";

/* Two requests, one connection. */
[$rc, $out] = tls_curl($srv->port, '/b', ['-w', ' (connects: %{num_connects})\n', "https://localhost:{$srv->port}/a"]);
echo "keep-alive: $rc\n$out";

$body = random_bytes(3 << 20);
$tmp = "$dir/body.bin";
file_put_contents($tmp, $body);
[$rc, $out] = tls_curl($srv->port, '/echo', ['--data-binary', "@$tmp"]);
echo 'body: ', var_export($out === md5($body) . ' ' . strlen($body), true), "\n";

[$rc, $out] = tls_curl($srv->port, '/big');
echo 'big: ', var_export($out === str_repeat('0123456789abcdef', 65536), true), "\n";
[$rc, $out] = tls_curl($srv->port, '/stream');
echo 'streamed: ', strlen($out), ' ', var_export($out === implode('', array_map(fn ($i) => str_repeat(chr(65 + $i % 26), 16384), range(0, 63))), true), "\n";
[$rc, $out] = tls_curl($srv->port, '/big', ['--compressed', '-w', '%{size_download}', '-o', "$dir/gz.out"]);
echo 'gzip: ', var_export((int) $out < 100000 && file_get_contents("$dir/gz.out") === str_repeat('0123456789abcdef', 65536), true), "\n";
[$rc, $out] = tls_curl($srv->port, '/file.bin');
echo 'static file: ', var_export($out === $file, true), "\n";
[$rc, $out] = tls_curl($srv->port, '/sendfile?f=' . urlencode("$dir/www/file.bin"));
echo 'sendFile: ', var_export($out === $file, true), "\n";

/* PHP's own TLS client: three pipelined requests in one write, answered in order. */
$c = new HttpTestConn($srv->port, tls_test_files()['cert']);
$c->send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /three HTTP/1.1\r\nHost: x\r\n\r\n");
foreach ([1, 2, 3] as $i) {
    $r = $c->response();
    echo "pipelined $i: {$r['status']} ", strlen($r['body']) > 100 ? strlen($r['body']) . ' bytes' : $r['body'], "\n";
}
$c->close();

/* Plain HTTP on the HTTPS port. */
$r = http_request($srv->port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo "plain: {$r['status']} {$r['body']}";
[$rc, $out] = tls_curl($srv->port, '/after');
echo "after: $out\n";
http_report_stop($srv);
?>
--EXPECT--
TLS 1.3: 0 ["on","https","TLSv1.3",true]
TLS 1.2: 0 ["on","https","TLSv1.2",true]
keep-alive: 0
hello /a (connects: 1)
hello /b (connects: 0)
body: true
big: true
streamed: 1048576 true
gzip: true
static file: true
sendFile: true
pipelined 1: 200 hello /one
pipelined 2: 200 1048576 bytes
pipelined 3: 200 hello /three
plain: 400 400 Bad Request: this port speaks HTTPS; the request came as plain HTTP
after: hello /after
exit: 0
