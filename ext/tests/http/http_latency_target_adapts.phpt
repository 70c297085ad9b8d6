--TEST--
HTTP: latency_target lowers the concurrency limit while concurrent handlers slow each other down, raises it back to "concurrency" when they do not, and loses no request
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
// Under valgrind and ASan everything is slower: longer holds, a longer target.
$scale = http_test_valgrind() ? 5 : (http_test_asan() ? 2 : 1);
$hold = 0.02 * $scale;
// Four holds: /contended's median (about half the admitted requests times a hold, or more)
// exceeds it until the limit is near 8, however slow the machine. /io waits a tenth of a hold:
// its median (that and the server's own time for 32 requests) stays far under the target
// even when other processes starve the server of CPU.
$target = 4 * $hold;
$ioHold = $hold / 10;
$srv = http_server_start('function ($req, $res) {
    global $server, $lock;
    if ($req->path === "/limit") {
        $res->end((string) $server->stats()["concurrency_limit"]);
        return;
    }
    // /contended holds one lock for a while: each request admitted makes the others wait longer.
    // /io only waits: its time does not depend on how many run at once.
    if ($req->path === "/contended") {
        $lock->pop();
    }
    Rapier\Coroutine::sleep((float) $req->query["hold"]);
    if ($req->path === "/contended") {
        $lock->push(true);
    }
    $res->end("ok");
}', ['concurrency' => 32, 'latency_target' => $target], '$lock = new Rapier\Channel(1); $lock->push(true);');

$conns = [];
for ($i = 0; $i < 32; $i++) {
    $conns[] = new HttpTestConn($srv->port);
}

function limit(int $port): int
{
    return (int) http_get($port, '/limit')['body'];
}

/**
 * 32 requests at a time on kept-alive connections until $reached says the limit got where it
 * should (at most 30 s, stretched); returns the count of each status. The limit moves one
 * 100 ms window at a time, so how long that takes depends on how fast this machine is: the
 * test asserts where the limit goes, not how soon.
 */
function load(array $conns, int $port, string $target, callable $reached): array
{
    $statuses = [];
    http_test_poll(function () use ($conns, $port, $target, $reached, &$statuses) {
        foreach ($conns as $c) {
            $c->send("GET $target HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        foreach ($conns as $c) {
            $status = $c->response(30)['status'] ?? 'none';
            $statuses[$status] = ($statuses[$status] ?? 0) + 1;
        }
        return $reached(limit($port));
    });
    return $statuses;
}

echo "at start: ", limit($srv->port), "\n";
$statuses = load($conns, $srv->port, "/contended?hold=$hold", fn (int $l) => $l < 16);
$limit = limit($srv->port);
echo "contended: ", implode(', ', array_keys($statuses)), "; limit lowered below 16: ",
    var_export($limit < 16, true), ($limit < 16 ? '' : " ($limit)"), "\n";
$statuses = load($conns, $srv->port, "/io?hold=$ioHold", fn (int $l) => $l === 32);
echo "io: ", implode(', ', array_keys($statuses)), "; limit: ", limit($srv->port), "\n";
http_report_stop($srv);
?>
--EXPECT--
at start: 32
contended: 200; limit lowered below 16: true
io: 200; limit: 32
exit: 0
