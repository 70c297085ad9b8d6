--TEST--
WebSocket: a client breaking the protocol gets the close code that says how (1002, 1007, 1009) and the connection closes, the handler's recv() returning null; requests that are not a handshake are refused (426 with Upgrade and Sec-WebSocket-Version, 400) and upgrade() returns null; a subprotocol the client did not offer is a ValueError
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/websocket.inc';
$srv = http_server_start('function ($req, $res) {
    try {
        $ws = $res->upgrade($req->path === "/pick" ? "nope" : null);
    } catch (ValueError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
        $res->status(400)->end("bad protocol\n");
        return;
    }
    if ($ws === null) {
        echo "refused: ", $res->statusCode(), "\n";
        return;
    }
    while (($m = $ws->recv()) !== null) {
        $ws->send("got " . strlen($m->data));
    }
    echo rtrim("handler: ended " . $ws->closeCode() . " " . $ws->closeReason()), "\n";
}', ['websocket_max_message_size' => 1000]);

function attempt(int $port, string $what, string $bytes): void
{
    $c = new WsTestClient($port);
    $c->answer();
    $c->sendRaw($bytes);
    $f = $c->frameIn();
    if ($f !== null && $f['opcode'] !== WS_CLOSE) {
        echo "$what: ", WsTestClient::describe($f), "; ";
        $f = $c->frameIn();
    }
    echo "$what: ", WsTestClient::describe($f), ', tcp closed: ', var_export($c->closedWithin(3), true), "\n";
}

$p = $srv->port;
attempt($p, 'unmasked', WsTestClient::frame(WS_TEXT, 'hi', mask: false));
attempt($p, 'rsv1 set', WsTestClient::frame(WS_TEXT, 'hi', rsv: 0x40));
attempt($p, 'opcode 3', WsTestClient::frame(3, 'hi'));
attempt($p, 'ping of 126 bytes', WsTestClient::frame(WS_PING, str_repeat('p', 126)));
attempt($p, 'fragmented ping', WsTestClient::frame(WS_PING, 'p', fin: false));
attempt($p, 'lone continuation', WsTestClient::frame(0, 'x'));
attempt($p, 'text inside a fragmented message', WsTestClient::frame(WS_TEXT, 'a', fin: false) . WsTestClient::frame(WS_TEXT, 'b'));
attempt($p, 'bad UTF-8', WsTestClient::frame(WS_TEXT, "ok \xc3\x28"));
attempt($p, 'UTF-8 cut between fragments', WsTestClient::frame(WS_TEXT, "\xe2\x82", fin: false) . WsTestClient::frame(0, 'x'));
attempt($p, 'message over 1000 bytes', WsTestClient::frame(WS_BINARY, str_repeat('b', 1000)) . WsTestClient::frame(WS_BINARY, str_repeat('b', 1001)));
attempt($p, 'fragments over 1000 bytes', WsTestClient::frame(WS_BINARY, str_repeat('b', 600), fin: false) . WsTestClient::frame(0, str_repeat('b', 600)));
attempt($p, 'close code 1005', WsTestClient::frame(WS_CLOSE, pack('n', 1005)));
attempt($p, 'close of one byte', WsTestClient::frame(WS_CLOSE, 'x'));
/* A client that goes away without a close frame. */
$c = new WsTestClient($p);
$c->answer();
$c->conn->close();

foreach ([
    'no Upgrade' => ['Upgrade' => '', 'Connection' => ''],
    'version 8' => ['Sec-WebSocket-Version' => '8'],
    'no Connection: Upgrade' => ['Connection' => 'keep-alive'],
    'short key' => ['Sec-WebSocket-Key' => base64_encode('0123456789')],
] as $what => $headers) {
    $c = new WsTestClient($p, '/ws', $headers);
    $h = $c->answer();
    echo "$what: {$h['status']}, upgrade: ", $h['headers']['upgrade'][0] ?? '-', ', version: ',
        $h['headers']['sec-websocket-version'][0] ?? '-', ', body: ', trim($h['body']), "\n";
}
$c = new WsTestClient($p, '/ws', [], '', 'POST');
echo 'POST: ', $c->answer()['status'], ' ', trim($c->answer()['body']), "\n";
$c = new WsTestClient($p, '/pick', ['Sec-WebSocket-Protocol' => 'chat, superchat']);
echo '/pick: ', $c->answer()['status'], "\n";
/* The handler of the client that left without a close has ended by now. */
http_test_poll(fn () => substr_count($srv->output(), 'handler: ended') >= 14);
$r = $srv->stop();
echo $r['code'], "\n", $r['err'];
foreach (explode("\n", $r['out']) as $line) {
    if (!in_array($line, ['ready', 'start() returned', ''], true)) {
        echo $line, "\n";
    }
}
?>
--EXPECT--
unmasked: close 1002 unmasked frame from a client, tcp closed: true
rsv1 set: close 1002 reserved bits set without an extension, tcp closed: true
opcode 3: close 1002 reserved opcode, tcp closed: true
ping of 126 bytes: close 1002 control frame longer than 125 bytes, tcp closed: true
fragmented ping: close 1002 fragmented control frame, tcp closed: true
lone continuation: close 1002 continuation frame without a message, tcp closed: true
text inside a fragmented message: close 1002 new message before the last one ended, tcp closed: true
bad UTF-8: close 1007 text message is not valid UTF-8, tcp closed: true
UTF-8 cut between fragments: close 1007 text message is not valid UTF-8, tcp closed: true
message over 1000 bytes: text "got 1000"; message over 1000 bytes: close 1009 message larger than max_message, tcp closed: true
fragments over 1000 bytes: close 1009 message larger than max_message, tcp closed: true
close code 1005: close 1002 close code that no endpoint may send, tcp closed: true
close of one byte: close 1002 close frame with a 1-byte payload, tcp closed: true
no Upgrade: 426, upgrade: websocket, version: 13, body: 426 Upgrade Required: this resource speaks WebSocket: the request must ask for Upgrade: websocket
version 8: 426, upgrade: websocket, version: 13, body: 426 Upgrade Required: this server speaks WebSocket version 13 only
no Connection: Upgrade: 400, upgrade: -, version: -, body: 400 Bad Request: a WebSocket handshake must send Connection: Upgrade
short key: 400, upgrade: -, version: -, body: 400 Bad Request: Sec-WebSocket-Key must be 16 bytes in base64
POST: 400 400 Bad Request: a WebSocket handshake must be a GET request
/pick: 400
0
handler: ended 1002 unmasked frame from a client
handler: ended 1002 reserved bits set without an extension
handler: ended 1002 reserved opcode
handler: ended 1002 control frame longer than 125 bytes
handler: ended 1002 fragmented control frame
handler: ended 1002 continuation frame without a message
handler: ended 1002 new message before the last one ended
handler: ended 1007 text message is not valid UTF-8
handler: ended 1007 text message is not valid UTF-8
handler: ended 1009 message larger than max_message
handler: ended 1009 message larger than max_message
handler: ended 1002 close code that no endpoint may send
handler: ended 1002 close frame with a 1-byte payload
handler: ended 1006
refused: 426
refused: 426
refused: 400
refused: 400
refused: 400
ValueError: Rapier\Http\Response::upgrade(): Argument #1 ($protocol) must be a subprotocol the client offered in Sec-WebSocket-Protocol ("chat, superchat")