--TEST--
HTTP/2 over TLS: h2 chosen by ALPN (curl --http2), $_SERVER's HTTPS and SSL variables on a stream, an upload of 3 MB and a streamed 1 MB answer through TLS; a client that offers only http/1.1, and PHP's TLS streams (no ALPN), get HTTP/1.1; without the http2 option ALPN never picks h2
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/../http/tls.inc';
require __DIR__ . '/h2.inc';
$handler = 'function ($req, $res) {
    switch ($req->path) {
        case "/vars":
            $s = $req->server();
            $res->json([$s["SERVER_PROTOCOL"], $s["HTTPS"] ?? null, $s["SSL_PROTOCOL"] ?? null, isset($s["SSL_CIPHER"])]);
            return;
        case "/echo":
            $res->end(md5($req->body()) . " " . strlen($req->body()));
            return;
        case "/stream":
            for ($i = 0; $i < 64; $i++) {
                $res->write(str_repeat(chr(65 + $i % 26), 16384));
            }
            $res->end();
            return;
    }
}';
$srv = http_server_start($handler, tls_test_options(['http2' => true, 'gzip' => false]));
[$rc, $out] = tls_curl($srv->port, '/vars', ['--http2', '-w', ' %{http_version}']);
echo "curl --http2: $rc $out\n";
[$rc, $out] = tls_curl($srv->port, '/vars', ['--http1.1', '-w', ' %{http_version}']);
echo "curl --http1.1: $rc $out\n";
$upload = random_bytes(3 << 20);
file_put_contents($file = tempnam(sys_get_temp_dir(), 'h2up'), $upload);
[$rc, $out] = tls_curl($srv->port, '/echo', ['--http2', '--data-binary', "@$file", '-w', ' %{http_version}']);
echo "upload: $rc ", $out === md5($upload) . ' ' . strlen($upload) . ' 2' ? 'same' : "DIFFERENT $out", "\n";
unlink($file);
[$rc, $out] = tls_curl($srv->port, '/stream', ['--http2']);
$expect = '';
for ($i = 0; $i < 64; $i++) {
    $expect .= str_repeat(chr(65 + $i % 26), 16384);
}
echo "stream: $rc ", $out === $expect ? 'same' : 'DIFFERENT', "\n";
$ctx = stream_context_create(['ssl' => ['cafile' => tls_test_files()['cert'], 'peer_name' => 'localhost']]);
$c = stream_socket_client("tls://127.0.0.1:{$srv->port}", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
fwrite($c, "GET /vars HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
$resp = stream_get_contents($c);
echo "PHP stream: ", strtok($resp, "\r\n"), ' ', substr($resp, strpos($resp, "\r\n\r\n") + 4), "\n";
http_report_stop($srv);

$srv = http_server_start($handler, tls_test_options());
[$rc, $out] = tls_curl($srv->port, '/vars', ['--http2', '-w', ' %{http_version}']);
echo "no http2 option: $rc $out\n";
http_report_stop($srv);
?>
--EXPECT--
curl --http2: 0 ["HTTP\/2.0","on","TLSv1.3",true] 2
curl --http1.1: 0 ["HTTP\/1.1","on","TLSv1.3",true] 1.1
upload: 0 same
stream: 0 same
PHP stream: HTTP/1.1 200 OK ["HTTP\/1.1","on","TLSv1.3",true]
exit: 0
no http2 option: 0 ["HTTP\/1.1","on","TLSv1.3",true] 1.1
exit: 0
