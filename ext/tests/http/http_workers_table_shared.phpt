--TEST--
HTTP workers: a Rapier\Table made before start() is shared by the workers and a user process: concurrent incr() from all of them loses no addition, and the rows outlive a killed worker and a reload
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$code = '$table = new Rapier\Table(16, ["hits" => "int", "pid" => "int", "note" => "string:32"]);';
$handler = 'function ($req, $res) use ($table, $server) {
    if ($req->path === "/add") {
        for ($i = 0; $i < 5000; $i++) {
            $table->incr("total", "hits");
        }
        $table->set("worker" . $server->workerId(), ["pid" => getmypid(), "note" => "served /add"]);
    }
    $res->json(["pid" => getmypid(), "rows" => iterator_to_array($table)]);
}';
$after = '$server->addProcess(function () use ($table) {
    for ($i = 0; $i < 20000; $i++) {
        $table->incr("total", "hits");
    }
    $table->set("process", ["pid" => getmypid(), "note" => "from the user process"]);
    Rapier\Coroutine::waitSignal(SIGTERM);
});';
$srv = new WorkersTestServer($handler, ['workers' => 2], $code, $after);

/* Ten requests at once, five thousand additions each, while the user process adds its own. */
$conns = [];
for ($i = 0; $i < 10; $i++) {
    $conns[$i] = new HttpTestConn($srv->port);
    $conns[$i]->send("GET /add HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
}
$pids = [];
foreach ($conns as $i => $c) {
    $r = $c->response(http_test_timeout(10));
    $pids[] = $r === null ? "request $i failed" : json_decode($r['body'], true)['pid'];
}
echo "every request served, by at most 2 workers: ", var_export(count(array_filter($pids, 'is_int')) === 10 && count(array_unique($pids)) <= 2, true), "\n";

function rows(int $port, float $timeout = 5): array
{
    $deadline = microtime(true) + http_test_timeout($timeout);
    do {
        $j = workers_get_json($port);
        if ($j !== null && isset($j['rows']['process'])) {
            return $j['rows'];
        }
        usleep(20000);
    } while (microtime(true) < $deadline);
    throw new RuntimeException('the user process never wrote its row: ' . json_encode($j));
}
$rows = rows($srv->port);
echo "total: {$rows['total']['hits']}\n";
echo "the user process's row: {$rows['process']['note']}, pid is a process of the server: ",
    var_export(in_array($rows['process']['pid'], $srv->processes(), true), true), "\n";
$workerRows = array_filter($rows, fn ($k) => str_starts_with($k, 'worker'), ARRAY_FILTER_USE_KEY);
echo "workers' rows name the pids that served: ",
    var_export(array_diff(array_column($workerRows, 'pid'), $pids) === [] && count($workerRows) >= 1, true), "\n";

echo "-- a worker killed, and replaced\n";
$st = $srv->status();
$victim = $srv->readyPids($st)[0];
workers_kill($victim, SIGKILL);
$srv->waitStatus(fn ($st) => count($srv->readyPids($st)) === 2 && !in_array($victim, $srv->readyPids($st), true), 10, 'a replacement');
echo "total after the kill: ", rows($srv->port)['total']['hits'], "\n";

echo "-- a reload\n";
$srv->reload(2);
$reloaded = rows($srv->port);
/* One worker may have served every /add (steering is free to), so the rows are compared, not counted. */
echo "total after the reload: {$reloaded['total']['hits']}, every row as before: ", var_export($reloaded == $rows, true),
    ", served by a new worker: ",
    var_export(!in_array(workers_get_json($srv->port)['pid'], $pids, true), true), "\n";

workers_report_stop($srv->stop());
?>
--EXPECT--
every request served, by at most 2 workers: true
total: 70000
the user process's row: from the user process, pid is a process of the server: true
workers' rows name the pids that served: true
-- a worker killed, and replaced
total after the kill: 70000
-- a reload
total after the reload: 70000, every row as before: true, served by a new worker: true
exit: 0
leftover processes: none
