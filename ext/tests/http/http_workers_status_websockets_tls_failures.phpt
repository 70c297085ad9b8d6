--TEST--
HTTP workers: the status document shows the WebSockets open now (per worker and in totals, back to 0 once closed) and the failed TLS handshakes (per worker and in totals, which keep a replaced worker's count)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
require __DIR__ . '/tls.inc';
require __DIR__ . '/websocket.inc';

$srv = new WorkersTestServer('function ($req, $res) {
    $ws = $res->upgrade();
    while (($m = $ws->recv()) !== null) {
        $ws->send("echo: " . $m->data);
    }
}', tls_test_options(['workers' => 1]));

function show(string $when, array $st): void
{
    $w = $st['workers'][0];
    echo "$when: worker {$w['generation']} websockets {$w['websockets']}, tls_handshake_failures {$w['tls_handshake_failures']};",
        " totals websockets {$st['totals']['websockets']}, tls_handshake_failures {$st['totals']['tls_handshake_failures']}\n";
}

show('at start', $srv->status());

$ws = new WsTestClient($srv->port, '/ws', [], '', 'GET', tls_test_files()['cert']);
echo 'wss: ', $ws->answer()['status'], "\n";
$ws->send(WS_TEXT, 'hi');
echo WsTestClient::describe($ws->frameIn()), "\n";
show('WebSocket open', $srv->waitStatus(fn ($st) => $st['totals']['websockets'] === 1, 3, 'the WebSocket counted'));

$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo 'plain HTTP: ', $c->response()['status'], "\n";
$c = new HttpTestConn($srv->port);
$c->send("\x00\x01\x02\x03" . str_repeat("\xff", 60));
echo 'garbage closed: ', var_export($c->closedWithin(3), true), "\n";
show('two failed handshakes', $srv->waitStatus(fn ($st) => $st['totals']['tls_handshake_failures'] === 2, 3,
    'the failed handshakes counted'));

$ws->send(WS_CLOSE, pack('n', 1000));
echo WsTestClient::describe($ws->frameIn()), ', tcp closed: ', var_export($ws->closedWithin(), true), "\n";
show('WebSocket closed', $srv->waitStatus(fn ($st) => $st['totals']['websockets'] === 0, 3, 'the WebSocket gone'));

/* A reload replaces the worker: its failures are kept in the totals, the new one starts at 0. */
$srv->http->signal(SIGHUP);
show('after a reload', $srv->waitStatus(fn ($st) => $st['generations']['worker'] === 2 && count($st['workers']) === 1
    && $st['workers'][0]['state'] === 'ready', 5, 'generation 2 alone'));
workers_report_stop($srv->stop());
?>
--EXPECT--
at start: worker 1 websockets 0, tls_handshake_failures 0; totals websockets 0, tls_handshake_failures 0
wss: 101
text "echo: hi"
WebSocket open: worker 1 websockets 1, tls_handshake_failures 0; totals websockets 1, tls_handshake_failures 0
plain HTTP: 400
garbage closed: true
two failed handshakes: worker 1 websockets 1, tls_handshake_failures 2; totals websockets 1, tls_handshake_failures 2
close 1000, tcp closed: true
WebSocket closed: worker 1 websockets 0, tls_handshake_failures 2; totals websockets 0, tls_handshake_failures 2
after a reload: worker 2 websockets 0, tls_handshake_failures 0; totals websockets 0, tls_handshake_failures 2
exit: 0
leftover processes: none
