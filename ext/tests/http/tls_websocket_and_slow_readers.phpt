--TEST--
HTTPS: WebSocket over TLS (wss); responses larger than the socket buffers to a client that waits before reading (records the socket could not take are sent again whole: a streamed body, a file with sendFile(), a static file) arrive intact; a client that never reads is cut off after write_timeout while others are served; a stop closes idle TLS connections
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
require __DIR__ . '/websocket.inc';
$f = tls_test_files();
mkdir("{$f['dir']}/www");
/* Several times what loopback's socket buffers hold while the client waits; under valgrind, where every byte costs, less. */
$mib = http_test_valgrind() ? 2 : 6;
$chunks = $mib * 16;
$file = random_bytes($mib << 20);
file_put_contents("{$f['dir']}/www/file.bin", $file);
$srv = http_server_start('function ($req, $res) {
    switch ($req->path) {
        case "/ws":
            $ws = $res->upgrade();
            while (($m = $ws->recv()) !== null) {
                $ws->send($m->binary ? $m->data : "echo: " . $m->data, $m->binary);
            }
            return;
        case "/stream":
            mt_srand(7);
            for ($i = 0; $i < CHUNKS; $i++) {
                $res->write(mt_rand() . str_repeat(chr(97 + $i % 26), 99991));
            }
            $res->end();
            return;
        case "/sendfile":
            $res->sendFile($req->query["f"]);
            return;
        case "/never-read":
            echo "never-read: start\n";
            $ok = $res->end(str_repeat("x", 64 << 20));
            echo "never-read: end returned ", var_export($ok, true), "\n";
            return;
    }
    $res->end("ok");
}', tls_test_options(['document_root' => "{$f['dir']}/www",
    /* Stretched like the waits: under valgrind the client, decrypting megabytes, may stall half a second between reads. */
    'write_timeout' => http_test_timeout(0.5)]), "const CHUNKS = $chunks;");

$ws = new WsTestClient($srv->port, '/ws', [], '', 'GET', $f['cert']);
echo 'wss handshake: ', $ws->answer()['status'], "\n";
$ws->send(WS_TEXT, 'hello');
echo WsTestClient::describe($ws->frameIn()), "\n";
$data = random_bytes(300000);
$ws->send(WS_BINARY, $data);
$r = $ws->frameIn();
echo 'wss binary 300000: ', var_export($r['payload'] === $data, true), "\n";
$ws->send(WS_PING, 'p');
echo WsTestClient::describe($ws->frameIn()), "\n";
$ws->send(WS_CLOSE, pack('n', 1000));
echo WsTestClient::describe($ws->frameIn()), ', closed: ', var_export($ws->closedWithin(), true), "\n";

mt_srand(7);
$expected = '';
for ($i = 0; $i < $chunks; $i++) {
    $expected .= mt_rand() . str_repeat(chr(97 + $i % 26), 99991);
}
foreach (['/stream' => $expected, '/sendfile?f=' . urlencode("{$f['dir']}/www/file.bin") => $file, '/file.bin' => $file]
        as $target => $want) {
    $c = new HttpTestConn($srv->port, $f['cert']);
    $c->send("GET $target HTTP/1.1\r\nHost: x\r\n\r\n");
    usleep(300000);   /* the server fills the socket and waits */
    $r = $c->response(10);
    echo strtok($target, '?'), ': ', $r['status'], ' ', var_export($r['body'] === $want, true), "\n";
    $c->close();
}

$c = new HttpTestConn($srv->port, $f['cert']);
$c->send("GET /never-read HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor('never-read: start', 3);
[$rc, $out] = tls_curl($srv->port, '/');
echo "meanwhile: $out\n";
var_dump($srv->waitFor('never-read: end', 5));
var_dump($c->closedWithin(5));

/* An idle keep-alive TLS connection at the stop: closed, the stop not held up. */
$idle = new HttpTestConn($srv->port, $f['cert']);
$idle->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo 'idle: ', $idle->response()['body'], "\n";
$r = $srv->stop();
echo 'idle closed: ', var_export($idle->closedWithin(3), true), "\n";
echo "exit: {$r['code']}\n", $r['out'];
?>
--EXPECT--
wss handshake: 101
text "echo: hello"
wss binary 300000: true
pong "p"
close 1000, closed: true
/stream: 200 true
/sendfile: 200 true
/file.bin: 200 true
meanwhile: ok
bool(true)
bool(true)
idle: ok
idle closed: true
exit: 0
ready
never-read: start
never-read: end returned false
start() returned
