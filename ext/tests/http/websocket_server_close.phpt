--TEST--
WebSocket: the server's side of closing (close() with a code and reason, the handler returning: 1000, throwing: 1011, a client that never answers a close: websocket_close_timeout, a stop: 1001 and the worker exits once the client answers); recv() with a timeout; one receiver at a time; another coroutine sending while the handler receives
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/websocket.inc';
$srv = http_server_start('function ($req, $res) {
    $ws = $res->upgrade();
    $path = $req->path;
    if ($path === "/return") {
        return;
    }
    if ($path === "/throw") {
        throw new RuntimeException("boom");
    }
    if ($path === "/close") {
        echo "close(): ", var_export($ws->close(4000, "done here"), true), ", again: ", var_export($ws->close(), true),
            ", send: ", var_export($ws->send("x"), true), ", open: ", var_export($ws->isOpen(), true), "\n";
    }
    if ($path === "/timeout") {
        try {
            $ws->recv(0.2);
        } catch (Rapier\TimeoutException $e) {
            $ws->send(get_class($e) . ": " . $e->getMessage());
        }
    }
    if ($path === "/ticker") {
        /* Another coroutine sends while this one waits in recv(); a second receiver is refused. */
        $wg = new Rapier\WaitGroup();
        $wg->add(2);
        Rapier\go(function () use ($ws, $wg) {
            for ($i = 1; $i <= 3; $i++) {
                Rapier\Coroutine::sleep(0.02);
                $ws->send("tick $i");
            }
            $wg->done();
        });
        Rapier\go(function () use ($ws, $wg) {
            Rapier\Coroutine::sleep(0.01);
            try {
                $ws->recv();
            } catch (Rapier\Exception $e) {
                $ws->send(get_class($e) . ": " . $e->getMessage());
            }
            $wg->done();
        });
        $m = $ws->recv();
        echo "ticker got: ", $m->data, "\n";
        $wg->wait();
    }
    while (($m = $ws->recv()) !== null) {
        $ws->send("echo: " . $m->data);
    }
    echo rtrim("$path: ended " . $ws->closeCode() . " " . $ws->closeReason()), "\n";
}', ['websocket_close_timeout' => 0.3]);
$p = $srv->port;

$c = new WsTestClient($p, '/close');
$c->answer();
echo '/close: ', WsTestClient::describe($c->frameIn()), "\n";
$c->send(WS_CLOSE, pack('n', 4000) . 'ok');
echo 'tcp closed: ', var_export($c->closedWithin(), true), "\n";

foreach (['/return', '/throw'] as $path) {
    $c = new WsTestClient($p, $path);
    $c->answer();
    echo "$path: ", WsTestClient::describe($c->frameIn()), ', tcp closed: ', var_export($c->closedWithin(), true), "\n";
}

$c = new WsTestClient($p, '/timeout');
$c->answer();
echo '/timeout: ', WsTestClient::describe($c->frameIn()), "\n";
$c->send(WS_CLOSE, pack('n', 1000));
echo WsTestClient::describe($c->frameIn()), "\n";

$c = new WsTestClient($p, '/ticker');
$c->answer();
$frames = [];
for ($i = 0; $i < 4; $i++) {
    $frames[] = WsTestClient::describe($c->frameIn());
}
sort($frames);
echo "/ticker:\n  ", implode("\n  ", $frames), "\n";
$c->send(WS_TEXT, 'hi');
$c->send(WS_TEXT, 'again');
echo WsTestClient::describe($c->frameIn()), "\n";
$c->send(WS_CLOSE, pack('n', 1001));
echo WsTestClient::describe($c->frameIn()), "\n";

/* A client that never answers our close: the connection closes after websocket_close_timeout. */
$c = new WsTestClient($p, '/close');
$c->answer();
echo '/close, no answer: ', WsTestClient::describe($c->frameIn()), ', tcp closed: ', var_export($c->closedWithin(), true), "\n";

/* The server stops with a WebSocket open: 1001, and it exits once the client has answered. */
$c = new WsTestClient($p, '/stay');
$c->answer();
$c->send(WS_TEXT, 'before the stop');
echo '/stay: ', WsTestClient::describe($c->frameIn()), "\n";
$srv->signal(SIGTERM);
$f = $c->frameIn();
echo 'stop: ', WsTestClient::describe($f), "\n";
$c->send(WS_CLOSE, $f['payload']);
echo 'tcp closed: ', var_export($c->closedWithin(), true), "\n";
$r = $srv->stop(0);
echo $r['code'], "\n";
echo 'the exception logged: ', var_export(str_contains($r['err'], 'RuntimeException: boom'), true), "\n";
foreach (explode("\n", $r['out']) as $line) {
    if (!in_array($line, ['ready', 'start() returned', ''], true)) {
        echo $line, "\n";
    }
}
?>
--EXPECT--
/close: close 4000 done here
tcp closed: true
/return: close 1000, tcp closed: true
/throw: close 1011 the server's handler failed, tcp closed: true
/timeout: text "Rapier\\TimeoutException: No WebSocket message arrived within 0.200 s"
close 1000
/ticker:
  text "Rapier\\Exception: Cannot receive: another coroutine is receiving on this WebSocket (one at a time; hand its messages to others with a Rapier\\Channel)"
  text "tick 1"
  text "tick 2"
  text "tick 3"
text "echo: again"
close 1001
/close, no answer: close 4000 done here, tcp closed: true
/stay: text "echo: before the stop"
stop: close 1001 the server is stopping
tcp closed: true
0
the exception logged: true
close(): true, again: false, send: false, open: false
/close: ended 4000 ok
/timeout: ended 1000
ticker got: hi
/ticker: ended 1001
close(): true, again: false, send: false, open: false
/close: ended 1006
/stay: ended 1001 the server is stopping