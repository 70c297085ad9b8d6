--TEST--
WebSocket: the handshake (Sec-WebSocket-Accept, a chosen subprotocol, headers set before upgrade()), text and binary messages of every length class echoed, fragments with a ping between them, frames sent right behind the handshake, the client's close answered and the TCP connection closed; an upgraded connection holds no handler slot
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/websocket.inc';
$srv = http_server_start('function ($req, $res) use ($server) {
    if ($req->path === "/plain") {
        $res->end("plain, websockets open: " . $server->stats()["websockets"] . "\n");
        return;
    }
    $res->cookie("session", "abc");
    $ws = $res->upgrade($req->header("sec-websocket-protocol") !== null ? "chat.v2" : null);
    try {
        $res->end("too late");
    } catch (Rapier\Exception $e) {
        fwrite(STDERR, $e->getMessage() . "\n");
    }
    while (($m = $ws->recv()) !== null) {
        $ws->send($m->binary ? $m->data : "echo: " . $m->data, $m->binary);
    }
    fwrite(STDERR, "handler: ended " . $ws->closeCode() . " " . json_encode($ws->closeReason()) . ", open: "
        . var_export($ws->isOpen(), true) . ", send: " . var_export($ws->send("late"), true) . "\n");
}', ['concurrency' => 1]);

$c = new WsTestClient($srv->port, '/ws', ['Sec-WebSocket-Protocol' => 'chat.v1, chat.v2']);
$h = $c->answer();
echo $h['status'], ' ', $h['reason'], "\n";
echo 'upgrade: ', $h['headers']['upgrade'][0], ', connection: ', $h['headers']['connection'][0], "\n";
echo 'accept ok: ', var_export($h['headers']['sec-websocket-accept'][0] === $c->expectedAccept(), true), "\n";
echo 'protocol: ', $h['headers']['sec-websocket-protocol'][0], ', cookie: ', $h['headers']['set-cookie'][0], "\n";
echo 'no length, no chunking: ', var_export(!isset($h['headers']['content-length']) && !isset($h['headers']['transfer-encoding']), true), "\n";

$c->send(WS_TEXT, 'hello');
echo WsTestClient::describe($c->frameIn()), "\n";
$c->send(WS_TEXT, '');
echo WsTestClient::describe($c->frameIn()), "\n";
$c->send(WS_TEXT, "h\u{e9}llo w\u{f6}rld \u{1f600}");
echo WsTestClient::describe($c->frameIn()), "\n";
foreach ([125, 126, 65535, 65536, 300000] as $len) {
    $data = random_bytes($len);
    $c->send(WS_BINARY, $data);
    $f = $c->frameIn();
    echo "binary $len: ", var_export($f['opcode'] === WS_BINARY && $f['payload'] === $data && $f['fin'], true), "\n";
}
/* A message in three fragments, a ping between the first two. */
$c->send(WS_TEXT, 'one ', false);
$c->send(WS_PING, 'are you there?');
echo WsTestClient::describe($c->frameIn()), "\n";
$c->send(0, 'two ', false);
$c->send(0, 'three');
echo WsTestClient::describe($c->frameIn()), "\n";

/* The handler slot is free: with concurrency 1 a plain request is served meanwhile. */
echo http_get($srv->port, '/plain')['body'];

/* The client closes: the server answers with the same code and closes the connection. */
$c->send(WS_CLOSE, pack('n', 1000) . 'bye');
echo WsTestClient::describe($c->frameIn()), "\n";
echo 'tcp closed: ', var_export($c->closedWithin(3), true), "\n";

/* Frames in the same packet as the handshake, and a close without a code. */
$c = new WsTestClient($srv->port, '/ws', [], WsTestClient::frame(WS_TEXT, 'early') . WsTestClient::frame(WS_CLOSE, ''));
echo $c->answer()['status'], ', no protocol: ', var_export(!isset($c->answer()['headers']['sec-websocket-protocol']), true), "\n";
echo WsTestClient::describe($c->frameIn()), "\n";
echo WsTestClient::describe($c->frameIn()), "\n";
echo 'tcp closed: ', var_export($c->closedWithin(3), true), "\n";
http_test_poll(fn () => str_contains(http_get($srv->port, '/plain')['body'], 'open: 0'));
echo http_get($srv->port, '/plain')['body'];

$r = $srv->stop();
echo $r['code'], "\n", $r['err'];
?>
--EXPECT--
101 Switching Protocols
upgrade: websocket, connection: Upgrade
accept ok: true
protocol: chat.v2, cookie: session=abc
no length, no chunking: true
text "echo: hello"
text "echo: "
text "echo: h\u00e9llo w\u00f6rld \ud83d\ude00"
binary 125: true
binary 126: true
binary 65535: true
binary 65536: true
binary 300000: true
pong "are you there?"
text "echo: one two three"
plain, websockets open: 1
close 1000
tcp closed: true
101, no protocol: true
text "echo: early"
close (no code)
tcp closed: true
plain, websockets open: 0
0
Cannot end the response: the connection was upgraded to a WebSocket; use the Rapier\Http\WebSocket upgrade() returned
handler: ended 1000 "bye", open: false, send: false
Cannot end the response: the connection was upgraded to a WebSocket; use the Rapier\Http\WebSocket upgrade() returned
handler: ended 1005 "", open: false, send: false
