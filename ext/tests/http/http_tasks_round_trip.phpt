--TEST--
HTTP tasks: task() runs on a task worker process and returns its result; exceptions, timeouts and values that cannot be serialized reach the caller as exceptions; tasks run concurrently
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) use ($server) {
    $try = function (callable $fn) {
        try {
            return $fn();
        } catch (Throwable $e) {
            return get_class($e) . ": " . $e->getMessage();
        }
    };
    $out = match ($req->path) {
        "/echo" => $try(fn() => $server->task(["n" => 42, "s" => "x"])),
        "/throw" => $try(fn() => $server->task("throw")),
        "/timeout" => $try(fn() => $server->task(["sleep" => 2], 0.1)),
        "/closure-data" => $try(fn() => $server->task(fn() => 1)),
        "/closure-result" => $try(fn() => $server->task("closure")),
        "/parallel" => $try(function () use ($server) {
            $wg = new Rapier\WaitGroup();
            $got = [];
            $t = microtime(true);
            for ($i = 0; $i < 10; $i++) {
                $wg->add();
                Rapier\go(function () use ($server, $wg, $i, &$got) {
                    $got[$i] = $server->task(["sleep" => 0.3, "i" => $i])["i"];
                    $wg->done();
                });
            }
            $wg->wait();
            ksort($got);
            return ["got" => $got, "fast" => microtime(true) - $t < 2.5];
        }),
    };
    $res->json(["pid" => getmypid(), "out" => $out]);
}';
$code = '';
$after = '$server->on("task", function ($data, $id) {
    if ($data === "throw") {
        throw new DomainException("no such thing");
    }
    if ($data === "closure") {
        return fn() => 1;
    }
    if (is_array($data) && isset($data["sleep"])) {
        Rapier\Coroutine::sleep($data["sleep"]);
    }
    return ["task_pid" => getmypid(), "data" => $data, "id_is_int" => is_int($id), "i" => $data["i"] ?? null];
});';
$srv = new WorkersTestServer($handler, ['workers' => 2, 'task_workers' => 2], $code, $after);
$st = $srv->waitStatus(fn($st) => count(array_filter($st['workers'],
    fn($w) => $w['role'] === 'task_worker' && $w['state'] === 'ready')) === 2, 5, '2 task workers ready');
$taskPids = array_column(array_filter($st['workers'], fn($w) => $w['role'] === 'task_worker'), 'pid');
$workerPids = $srv->readyPids($st);

$j = workers_get_json($srv->port, '/echo');
echo "result: ", json_encode($j['out']['data']), ", id is int: ", var_export($j['out']['id_is_int'], true), "\n";
echo "ran in a task worker, not the caller: ", var_export(in_array($j['out']['task_pid'], $taskPids, true)
    && $j['out']['task_pid'] !== $j['pid'] && in_array($j['pid'], $workerPids, true), true), "\n";
foreach (['/throw', '/timeout', '/closure-data', '/closure-result'] as $path) {
    echo "$path: ", workers_get_json($srv->port, $path)['out'], "\n";
}
$j = workers_get_json($srv->port, '/parallel');
echo "parallel: ", implode(',', $j['out']['got']), ", overlapped: ", var_export($j['out']['fast'], true), "\n";
$seen = [];
for ($i = 0; $i < 20; $i++) {
    $seen[workers_get_json($srv->port, '/echo')['out']['task_pid']] = true;
}
echo "tasks answered after the timeout: ", var_export(count($seen) >= 1, true), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
result: {"n":42,"s":"x"}, id is int: true
ran in a task worker, not the caller: true
/throw: Rapier\Exception: The task failed: DomainException: no such thing
/timeout: Rapier\TimeoutException: The task did not finish within 0.100 s
/closure-data: Exception: Serialization of 'Closure' is not allowed
/closure-result: Rapier\Exception: The task failed: Exception: Serialization of 'Closure' is not allowed
parallel: 0,1,2,3,4,5,6,7,8,9, overlapped: true
tasks answered after the timeout: true
exit: 0
leftover processes: none
