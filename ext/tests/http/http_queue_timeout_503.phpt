--TEST--
HTTP: queue_timeout: a request that waits that long for a handler slot gets a 503 from the loop, on a connection kept open
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
// Under valgrind everything is slower: a wider gap between the waits that must be refused and the one that must not.
$queueTimeout = http_test_valgrind() ? 1.5 : 0.3;
$busyFor = $queueTimeout * 7;
$srv = http_server_start('function ($req, $res) {
    global $server;
    if ($req->path === "/stats") {
        $res->end("shed=" . $server->stats()["shed"]);
        return;
    }
    Rapier\Coroutine::sleep((float) ($req->query["t"] ?? 0));
    $res->end("done " . $req->path);
}', ['concurrency' => 1, 'queue_timeout' => $queueTimeout]);

// One slot, held for a while: the two requests queued behind it wait queue_timeout and are refused.
$busy = new HttpTestConn($srv->port);
$busy->send("GET /busy?t=$busyFor HTTP/1.1\r\nHost: x\r\n\r\n");
usleep(100000);
$kept = new HttpTestConn($srv->port);
$kept->send("GET /kept HTTP/1.1\r\nHost: x\r\n\r\n");
$closing = new HttpTestConn($srv->port);
$closing->send("HEAD /closing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

$r = $kept->response(5);
echo "kept: {$r['status']}, Retry-After: {$r['headers']['retry-after'][0]}, Connection: ",
    $r['headers']['connection'][0] ?? '(none)', "\n", $r['body'];
$r = $closing->response(5, true);
echo "closing: {$r['status']}, Connection: {$r['headers']['connection'][0]}, closed: ",
    var_export($closing->closedWithin(2), true), "\n";
// The refusals came while the slot was still busy: the handler never saw them.
echo "busy still running: ", var_export($busy->readSome(0.01) === '', true), "\n";
$r = $busy->response($busyFor + 5);
echo "busy: {$r['status']} {$r['body']}\n";

// The refused connection stayed usable; a request that waits less than queue_timeout is served.
$kept->send("GET /kept-again?t=0.1 HTTP/1.1\r\nHost: x\r\n\r\n");
usleep(20000);
$short = new HttpTestConn($srv->port);
$short->send("GET /short HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $kept->response(5);
echo "kept again: {$r['status']} {$r['body']}\n";
$r = $short->response(5);
echo "short: {$r['status']} {$r['body']}\n";
$kept->send("GET /stats HTTP/1.1\r\nHost: x\r\n\r\n");
echo "stats: ", $kept->response(5)['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
kept: 503, Retry-After: 1, Connection: (none)
503 Service Unavailable: every handler slot stayed busy for queue_timeout
closing: 503, Connection: close, closed: true
busy still running: true
busy: 200 done /busy
kept again: 200 done /kept-again
short: 200 done /short
stats: shed=2
exit: 0
