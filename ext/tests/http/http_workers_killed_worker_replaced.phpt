--TEST--
HTTP workers: kill -9 of a worker mid-request: its client sees the connection close (no hang), the master starts a replacement (restarts 1), the other worker keeps serving throughout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) use ($server) {
    if ($req->path === "/slow") {
        echo "slow " . getmypid() . "\n";
        Rapier\Coroutine::sleep(30);
    }
    $res->json(["pid" => getmypid(), "worker" => $server->workerId()]);
}';
$srv = new WorkersTestServer($handler, ['workers' => 2]);
$before = $srv->readyPids($srv->status());

/* A request that would take 30 s; which worker has it is printed by the handler. */
$slow = new HttpTestConn($srv->port);
$slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->http->waitFor("slow ", 3) || !preg_match('~slow (\d+)\n~', $srv->http->output(), $m)) {
    die("the slow request did not reach a handler\n");
}
$victim = (int) $m[1];
$survivor = array_values(array_diff($before, [$victim]))[0];
echo "the slow request is on a worker: ", var_export(in_array($victim, $before, true), true), "\n";

/* A keep-alive connection served by the other worker (new connections until one lands there). */
$keep = null;
for ($i = 0; $i < 100 && $keep === null; $i++) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $c->response();
    if ($r !== null && json_decode($r['body'], true)['pid'] === $survivor) {
        $keep = $c;
    } else {
        $c->close();
    }
}
echo "keep-alive connection on the other worker: ", var_export($keep !== null, true), "\n";

$failed = 0;
workers_kill($victim, 9);
$closed = $slow->closedWithin(3);
echo "client of the killed request: ", $closed ? "connection closed" : "no close within 3 s", ", bytes received: ",
    json_encode($slow->buf), "\n";

/* While the master notices and replaces it, the other worker answers everything. */
$deadline = microtime(true) + http_test_timeout(10);
while (!workers_proc_exited($victim) && microtime(true) < $deadline) {
    $keep->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $keep->response();
    $failed += $r === null || json_decode($r['body'], true)['pid'] !== $survivor;
}
$st = null;
$n = 0;
$deadline = microtime(true) + http_test_timeout(10);
do {
    $keep->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $keep->response();
    $failed += $r === null || json_decode($r['body'], true)['pid'] !== $survivor;
    $failed += workers_get_json($srv->port) === null;
    $n++;
    $st = $srv->status();
    $pids = $st ? $srv->readyPids($st) : [];
} while ((count($pids) !== 2 || in_array($victim, $pids, true)) && microtime(true) < $deadline);

$replacement = array_values(array_diff($pids, [$survivor]));
echo "requests during the replacement: failed: $failed\n";
echo "status: ", count($pids), " ready, killed pid gone: ", var_export(!in_array($victim, $pids, true), true),
    ", survivor kept: ", var_export(in_array($survivor, $pids, true), true),
    ", a new pid: ", var_export(count($replacement) === 1 && !in_array($replacement[0], $before, true), true), "\n";
echo "restarts: {$st['restarts']}, generation: {$st['generations']['worker']}\n";
$index = array_column($st['workers'], 'index', 'pid');
echo "the replacement took the killed worker's index: ",
    var_export($index[$replacement[0]] === array_search($victim, $before, true), true), "\n";
echo "zombies: ", count($srv->zombies()), "\n";

/* The replacement serves too. */
$seen = [];
for ($i = 0; $i < 200 && count($seen) < 2; $i++) {
    $j = workers_get_json($srv->port);
    $failed += $j === null;
    $seen[$j['pid'] ?? 0] = true;
}
echo "both workers answer afterwards: ", var_export(isset($seen[$replacement[0]], $seen[$survivor]), true),
    ", failed: $failed\n";
$keep->close();

$r = $srv->stop();
workers_report_stop($r);
echo "the master logged the death: ", var_export(str_contains($r['err'], "(pid $victim, generation 1) was killed by signal 9 (SIGKILL)"), true), "\n";
?>
--EXPECT--
the slow request is on a worker: true
keep-alive connection on the other worker: true
client of the killed request: connection closed, bytes received: ""
requests during the replacement: failed: 0
status: 2 ready, killed pid gone: true, survivor kept: true, a new pid: true
restarts: 1, generation: 1
the replacement took the killed worker's index: true
zombies: 0
both workers answer afterwards: true, failed: 0
exit: 0
leftover processes: none
the master logged the death: true
