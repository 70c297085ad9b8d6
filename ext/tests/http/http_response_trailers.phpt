--TEST--
HTTP: Response::trailer() sends trailer fields after a chunked body (a whole body, a streamed one, an empty one, a file, gzip), the connection kept; none for HTTP/1.0, HEAD and 204; names that frame or describe the body refused; an error answer drops them
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$file = sys_get_temp_dir() . '/rapier-trailers-' . getmypid() . '.txt';
file_put_contents($file, str_repeat('file body ', 1000));
$srv = http_server_start('function ($req, $res) {
    $res->header("Content-Type", "text/plain");
    switch ($req->path) {
        case "/whole":
            $res->trailer("X-Checksum", md5("hello"))->trailer("grpc-status", " 0 ");
            $res->end("hello");
            return;
        case "/stream":
            $res->write("one;");
            Rapier\Coroutine::sleep(0.01);
            $res->write("two;");
            $res->trailer("X-Parts", "3");
            $res->end("three");
            return;
        case "/empty":
            $res->trailer("grpc-status", "5")->trailer("grpc-message", "not%20found");
            $res->end();
            return;
        case "/file":
            $res->trailer("X-File", "yes");
            $res->sendfile(' . var_export($file, true) . ');
            return;
        case "/gzip":
            $res->trailer("X-Gzip", "after");
            $res->end(str_repeat("compressible text ", 500));
            return;
        case "/204":
            $res->status(204)->trailer("X-None", "1");
            $res->end();
            return;
        case "/throws":
            $res->trailer("X-Lost", "1");
            throw new RuntimeException("handler failed");
        case "/misuse":
            $out = [];
            foreach (["Content-Length", "transfer-encoding", "Trailer", "Content-Type", "Set-Cookie", "Host", "a b", ""] as $name) {
                try {
                    $res->trailer($name, "1");
                    $out[] = "$name: accepted";
                } catch (ValueError $e) {
                    $out[] = $e->getMessage();
                }
            }
            try {
                $res->trailer("X-Split", "a\r\nX-Injected: 1");
            } catch (ValueError $e) {
                $out[] = $e->getMessage();
            }
            $res->end(implode("\n", $out));
            try {
                $res->trailer("X-Late", "1");
            } catch (Rapier\Exception $e) {
                fwrite(STDERR, $e->getMessage() . "\n");
            }
            return;
    }
    $res->end("plain");
}');
$p = $srv->port;

/* One connection through every kind of body: each ends where its framing says, so the next reads cleanly. */
$c = new HttpTestConn($p);
foreach (['/whole', '/stream', '/empty', '/file', '/plain'] as $path) {
    $c->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $c->response();
    echo $path, ': ', $r['status'], ' ', $r['headers']['transfer-encoding'][0] ?? 'length ' . ($r['headers']['content-length'][0] ?? '-'),
        ' ', strlen($r['body']) > 40 ? strlen($r['body']) . ' bytes' : json_encode($r['body']),
        ' ', json_encode($r['trailers'] ?? null), "\n";
}
echo "file body intact: ", var_export($r !== null, true), "\n";
$c->send("GET /file HTTP/1.1\r\nHost: x\r\n\r\n");
echo "file body intact: ", var_export($c->response()['body'] === file_get_contents($file), true), "\n";
$c->close();

$r = http_get($p, '/gzip', ['Accept-Encoding: gzip']);
echo "/gzip: ", $r['headers']['content-encoding'][0] ?? 'plain', ' ', $r['headers']['transfer-encoding'][0] ?? '-', ' ',
    var_export(gzdecode($r['body']) === str_repeat("compressible text ", 500), true), ' ', json_encode($r['trailers']), "\n";

/* HTTP/1.0 has no chunked coding, hence no trailer section: the body keeps its length. */
$c = new HttpTestConn($p);
$c->send("GET /whole HTTP/1.0\r\n\r\n");
$raw = $c->readAll(3);
echo "HTTP/1.0: ", var_export(str_contains($raw, "Content-Length: 5\r\n"), true), ' ', var_export(str_ends_with($raw, "\r\n\r\nhello"), true),
    ' ', var_export(stripos($raw, 'checksum') !== false, true), "\n";
$r = http_request($p, "HEAD /whole HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 3, true);
echo "HEAD: ", $r['status'], ' ', $r['headers']['content-length'][0] ?? '-', ' ', $r['headers']['transfer-encoding'][0] ?? '-', "\n";
$c = new HttpTestConn($p);
$c->send("GET /204 HTTP/1.1\r\nHost: x\r\n\r\nGET /plain HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo "204: ", $r['status'], ' ', $r['headers']['transfer-encoding'][0] ?? '-', ', then: ', $c->response()['body'], "\n";
$c->close();

[$code, $out] = http_curl(['--raw', "http://127.0.0.1:$p/whole"]);
echo "curl --raw: $code ", json_encode($out), "\n";
[$code, $out] = http_curl(["http://127.0.0.1:$p/stream"]);
echo "curl: $code $out\n";

$r = http_get($p, '/throws');
echo "/throws: ", $r['status'], ' ', $r['headers']['transfer-encoding'][0] ?? 'length', ' ', json_encode($r['trailers'] ?? null), "\n";
echo http_get($p, '/misuse')['body'], "\n";
$r = $srv->stop();
echo $r['code'], "\n", preg_replace('~\n.*(Stack trace|#\d).*~', '', preg_replace('~^.*(RuntimeException: handler failed).*$~m', '$1', $r['err']));
@unlink($file);
?>
--EXPECT--
/whole: 200 chunked "hello" {"x-checksum":["5d41402abc4b2a76b9719d911017c592"],"grpc-status":["0"]}
/stream: 200 chunked "one;two;three" {"x-parts":["3"]}
/empty: 200 chunked "" {"grpc-status":["5"],"grpc-message":["not%20found"]}
/file: 200 chunked 10000 bytes {"x-file":["yes"]}
/plain: 200 length 5 "plain" null
file body intact: true
file body intact: true
/gzip: gzip chunked true {"x-gzip":["after"]}
HTTP/1.0: true true false
HEAD: 200 5 -
204: 204 -, then: plain
curl --raw: 0 "5\r\nhello\r\n0\r\nX-Checksum: 5d41402abc4b2a76b9719d911017c592\r\ngrpc-status: 0\r\n\r\n"
curl: 0 one;two;three
/throws: 500 length null
Rapier\Http\Response::trailer(): Argument #1 ($name) must not be a field the client needs before the body (Content-Length); send it with header()
Rapier\Http\Response::trailer(): Argument #1 ($name) must not be a field the client needs before the body (transfer-encoding); send it with header()
Rapier\Http\Response::trailer(): Argument #1 ($name) must not be a field the client needs before the body (Trailer); send it with header()
Rapier\Http\Response::trailer(): Argument #1 ($name) must not be a field the client needs before the body (Content-Type); send it with header()
Rapier\Http\Response::trailer(): Argument #1 ($name) must not be a field the client needs before the body (Set-Cookie); send it with header()
Rapier\Http\Response::trailer(): Argument #1 ($name) must not be a field the client needs before the body (Host); send it with header()
Rapier\Http\Response::trailer(): Argument #1 ($name) must be a valid header name (letters, digits and !#$%&'*+-.^_`|~)
Rapier\Http\Response::trailer(): Argument #1 ($name) must be a valid header name (letters, digits and !#$%&'*+-.^_`|~)
Rapier\Http\Response::trailer(): Argument #2 ($value) must not contain CR, LF, NUL or other control characters
0
RuntimeException: handler failed
Cannot add a trailer: the response has already ended
