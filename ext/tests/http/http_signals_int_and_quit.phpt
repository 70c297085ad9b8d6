--TEST--
HTTP: SIGINT stops gracefully like SIGTERM; SIGQUIT closes every connection at once
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$handler = 'function ($req, $res) {
    echo "handling\n";
    try {
        Rapier\Coroutine::sleep(0.3);
    } catch (Rapier\CanceledException $e) {
    }
    $res->end("done");
}';
foreach ([2 => 'SIGINT', 3 => 'SIGQUIT'] as $sig => $name) {
    $srv = http_server_start($handler);
    $c = new HttpTestConn($srv->port);
    $c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    $srv->waitFor("handling\n", 3);
    $srv->signal($sig);
    $r = $c->response(3);
    echo "$name: ", $r ? $r['body'] : 'no response', $c->closedWithin(3) ? ', closed' : '', "\n";
    $res = $srv->stop(0);
    echo "exit: {$res['code']}, ", str_contains($res['out'], "start() returned") ? 'start() returned' : 'killed', "\n";
}
?>
--EXPECT--
SIGINT: done, closed
exit: 0, start() returned
SIGQUIT: no response, closed
exit: 0, start() returned
