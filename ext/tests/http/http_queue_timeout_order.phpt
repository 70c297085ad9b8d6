--TEST--
HTTP: queue_timeout counts for each queued request from its own arrival, a client that left while queued does not disturb the others, and the timeout works again once the queue has emptied
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$q = http_test_valgrind() ? 1.5 : 0.4;
$srv = http_server_start('function ($req, $res) {
    global $server;
    if ($req->path === "/stats") {
        $res->end("shed=" . $server->stats()["shed"] . " abandoned=" . $server->stats()["abandoned"]);
        return;
    }
    Rapier\Coroutine::sleep((float) ($req->query["t"] ?? 0));
    $res->end("done " . $req->path);
}', ['concurrency' => 1, 'queue_timeout' => $q]);

function queued(int $port, string $path): array
{
    $c = new HttpTestConn($port);
    $c->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    return [$c, microtime(true)];
}

function waited(array $queued, float $q, string $name): void
{
    [$c, $since] = $queued;
    $r = $c->response($q + 5);
    $waited = microtime(true) - $since;
    // Refused after queue_timeout, not with an older request nor when the slot freed.
    printf("%s: %d after %s\n", $name, $r['status'], $waited >= $q * 0.9 && $waited < $q * 2.5 ? 'queue_timeout' : sprintf('%.3f s', $waited));
}

$busy = queued($srv->port, '/busy?t=' . ($q * 4));
usleep(50000);
$first = queued($srv->port, '/first');
usleep((int) ($q * 500000));
$leaving = queued($srv->port, '/leaving');
$second = queued($srv->port, '/second');
usleep(20000);
// Dropped as it leaves (http_queue_client_leaves.phpt): the queue and its timer go on without it.
$leaving[0]->close();
waited($first, $q, 'first');
waited($second, $q, 'second');
$r = $busy[0]->response($q * 4 + 5);
echo "busy: {$r['status']} {$r['body']}\n";

// The queue emptied; a new wait is timed again.
$busy = queued($srv->port, '/busy-again?t=' . ($q * 3));
usleep(50000);
waited(queued($srv->port, '/third'), $q, 'third');
$r = $busy[0]->response($q * 3 + 5);
echo "busy again: {$r['status']} {$r['body']}\n";
$r = http_request($srv->port, "GET /stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
echo $r['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
first: 503 after queue_timeout
second: 503 after queue_timeout
busy: 200 done /busy
third: 503 after queue_timeout
busy again: 200 done /busy-again
shed=3 abandoned=1
exit: 0
