--TEST--
WebSocket permessage-deflate (websocket_compression): the offer answered without context takeover (server_max_window_bits kept), compressed messages from the client inflated (one frame, fragments with a ping between, text and binary), messages from 128 bytes sent compressed and shorter ones not, RSV1 where RFC 7692 forbids it (1002), bytes that are not deflate data or not UTF-8 once inflated (1007), a small bomb stopped at websocket_max_message_size (1009); without the option, or for an offer it cannot keep, no extension and RSV1 is an error
--EXTENSIONS--
rapier
zlib
--FILE--
<?php
require __DIR__ . '/websocket.inc';

/* A frame in one line; a compressed one inflated, and compared with what it should say when that is long. */
function show(?array $f, ?string $expected = null): string
{
    if ($f === null || $f['opcode'] === WS_CLOSE || !($f['rsv'] & 0x40)) {
        return WsTestClient::describe($f);
    }
    $plain = WsTestClient::inflate($f['payload']);
    return ($f['opcode'] === WS_TEXT ? 'text' : 'binary') . ' compressed, ' . strlen($f['payload']) . ' bytes for '
        . ($expected === null ? json_encode($plain) : strlen($plain) . ', as sent: ' . var_export($plain === $expected, true));
}

$handler = 'function ($req, $res) {
    $ws = $res->upgrade();
    while (($m = $ws->recv()) !== null) {
        $ws->send($m->binary ? $m->data : "echo: " . $m->data, $m->binary);
    }
    fwrite(STDERR, "handler: " . $ws->closeCode() . " " . $ws->closeReason() . "\n");
}';
$srv = http_server_start($handler, ['websocket_compression' => true, 'websocket_max_message_size' => 100000]);
$offer = ['Sec-WebSocket-Extensions' => 'permessage-deflate; client_max_window_bits'];

$c = new WsTestClient($srv->port, '/ws', $offer);
echo 'agreed: ', $c->answer()['headers']['sec-websocket-extensions'][0] ?? '(none)', "\n";
$c->sendRaw(WsTestClient::frame(WS_TEXT, WsTestClient::deflate('Hello'), true, true, 0x40));
echo show($c->frameIn()), "\n";
$long = str_repeat('{"user":"ann","text":"hello, world"} ', 100);
$c->sendRaw(WsTestClient::frame(WS_TEXT, WsTestClient::deflate($long), true, true, 0x40));
echo show($c->frameIn(), "echo: $long"), "\n";
/* Fragments of one compressed message, RSV1 on the first only, a ping between them. */
$d = WsTestClient::deflate($long);
$c->sendRaw(WsTestClient::frame(WS_TEXT, substr($d, 0, 10), false, true, 0x40));
$c->send(WS_PING, 'still there?');
echo show($c->frameIn()), "\n";
$c->sendRaw(WsTestClient::frame(WS_CONTINUATION, substr($d, 10)));
echo show($c->frameIn(), "echo: $long"), "\n";
/* Uncompressed messages still go both ways; binary that does not shrink goes as it is. */
$c->send(WS_TEXT, 'plain');
echo show($c->frameIn()), "\n";
$noise = random_bytes(5000);
$c->sendRaw(WsTestClient::frame(WS_BINARY, WsTestClient::deflate($noise), true, true, 0x40));
$f = $c->frameIn();
echo 'random binary back: rsv ', $f['rsv'], ', intact: ', var_export($f['payload'] === $noise, true), "\n";
$c->send(WS_CLOSE, pack('n', 1000));
echo show($c->frameIn()), "\n";

/* Faults, each on a connection of its own. */
$cases = [
    'RSV1 on a continuation' => WsTestClient::frame(WS_TEXT, WsTestClient::deflate('ab'), false, true, 0x40)
        . WsTestClient::frame(WS_CONTINUATION, 'x', true, true, 0x40),
    'RSV1 on a ping' => WsTestClient::frame(WS_PING, 'p', true, true, 0x40),
    'not deflate data' => WsTestClient::frame(WS_BINARY, "\xff\xff\xff\xff", true, true, 0x40),
    'not UTF-8 once inflated' => WsTestClient::frame(WS_TEXT, WsTestClient::deflate("ok \xff"), true, true, 0x40),
    'a bomb: 10 MB of zeros' => WsTestClient::frame(WS_BINARY, WsTestClient::deflate(str_repeat("\0", 10 << 20)), true, true, 0x40),
];
foreach ($cases as $what => $bytes) {
    $c = new WsTestClient($srv->port, '/ws', $offer);
    $c->answer();
    $c->sendRaw($bytes);
    echo "$what: ", show($c->frameIn()), ', closed: ', var_export($c->closedWithin(), true), "\n";
}

/* An offer it cannot keep (the server's window at 8 bits): declined, so RSV1 is an error. */
$c = new WsTestClient($srv->port, '/ws', ['Sec-WebSocket-Extensions' => 'permessage-deflate; server_max_window_bits=8']);
echo 'declined: ', $c->answer()['headers']['sec-websocket-extensions'][0] ?? '(none)', "\n";
$c->sendRaw(WsTestClient::frame(WS_TEXT, WsTestClient::deflate('Hello'), true, true, 0x40));
echo show($c->frameIn()), "\n";
/* server_max_window_bits=10 is kept. */
$c = new WsTestClient($srv->port, '/ws', ['Sec-WebSocket-Extensions' => 'permessage-deflate; server_max_window_bits=10']);
echo 'agreed: ', $c->answer()['headers']['sec-websocket-extensions'][0] ?? '(none)', "\n";
$c->sendRaw(WsTestClient::frame(WS_TEXT, WsTestClient::deflate($long), true, true, 0x40));
echo show($c->frameIn(), "echo: $long"), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'];

/* Without the option: the offer is ignored. */
$srv = http_server_start($handler);
$c = new WsTestClient($srv->port, '/ws', $offer);
echo 'off: ', $c->answer()['headers']['sec-websocket-extensions'][0] ?? '(none)', "\n";
$c->sendRaw(WsTestClient::frame(WS_TEXT, WsTestClient::deflate('Hello'), true, true, 0x40));
echo show($c->frameIn()), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECTF--
agreed: permessage-deflate; server_no_context_takeover; client_no_context_takeover
text "echo: Hello"
text compressed, %d bytes for 3706, as sent: true
pong "still there?"
text compressed, %d bytes for 3706, as sent: true
text "echo: plain"
random binary back: rsv 0, intact: true
close 1000
RSV1 on a continuation: close 1002 compressed bit on a control frame or a continuation, closed: true
RSV1 on a ping: close 1002 compressed bit on a control frame or a continuation, closed: true
not deflate data: close 1007 compressed message is not deflate data, closed: true
not UTF-8 once inflated: close 1007 text message is not valid UTF-8, closed: true
a bomb: 10 MB of zeros: close 1009 message larger than max_message once inflated, closed: true
declined: (none)
close 1002 reserved bits set without an extension
agreed: permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10
text compressed, %d bytes for 3706, as sent: true
exit: 0
handler: 1000 
handler: 1002 compressed bit on a control frame or a continuation
handler: 1002 compressed bit on a control frame or a continuation
handler: 1007 compressed message is not deflate data
handler: 1007 text message is not valid UTF-8
handler: 1009 message larger than max_message once inflated
handler: 1002 reserved bits set without an extension
handler: 1006 
off: (none)
close 1002 reserved bits set without an extension
exit: 0
