--TEST--
HTTP tasks: SIGUSR2 replaces the task workers under load without a failed task (request workers stay); kill -9 of a task worker mid-task fails that task with an exception, and the replacement serves the next
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: task workers run under valgrind in http_tasks_round_trip and http_tasks_sent_while_draining; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) use ($server) {
    try {
        $out = $server->task($req->path === "/slow" ? "slow" : "quick");
    } catch (Throwable $e) {
        $out = get_class($e) . ": " . $e->getMessage();
    }
    $res->json(["pid" => getmypid(), "out" => $out]);
}';
$after = '$server->on("task", function ($data) {
    if ($data === "slow") {
        echo "slow task " . getmypid() . "\n";
        Rapier\Coroutine::sleep(30);
    }
    Rapier\Coroutine::sleep(0.01);
    return getmypid();
});';
$srv = new WorkersTestServer($handler, ['workers' => 2, 'task_workers' => 1], '', $after);
$taskPid = function (array $st): ?int {
    foreach ($st['workers'] as $w) {
        if ($w['role'] === 'task_worker' && $w['state'] === 'ready') {
            return $w['pid'];
        }
    }
    return null;
};
$st = $srv->waitStatus(fn($st) => $taskPid($st) !== null, 5, 'the task worker ready');
$first = $taskPid($st);
$workers = $srv->readyPids($st);

/* Under load: 20 concurrent clients, each sending requests that run a task, while SIGUSR2 arrives. */
$conns = [];
for ($i = 0; $i < 20; $i++) {
    $conns[] = new HttpTestConn($srv->port);
}
$failed = 0;
$pids = [];
$deadline = microtime(true) + http_test_timeout(10);
$signaled = false;
/* Until a task worker other than the first has answered: the status can show the new one before it has served. */
for ($round = 0; $round < 30 || ($signaled && count($pids) < 2); $round++) {
    foreach ($conns as $c) {
        $c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    }
    foreach ($conns as $c) {
        $r = $c->response();
        $out = $r ? json_decode($r['body'], true)['out'] ?? null : null;
        if (!is_int($out)) {
            $failed++;
            echo "failed: ", $r['body'] ?? 'no response', "\n";
        } else {
            $pids[$out] = true;
        }
    }
    if ($round === 5) {
        workers_kill($srv->masterPid, SIGUSR2);
        $signaled = true;
    }
    if (microtime(true) > $deadline) {
        break;
    }
}
$st = $srv->waitStatus(fn($st) => ($p = $taskPid($st)) !== null && $p !== $first
    && count(array_filter($st['workers'], fn($w) => $w['role'] === 'task_worker')) === 1, 5, 'the new task worker alone');
$second = $taskPid($st);
echo "failed tasks during the reload: $failed\n";
echo "old and new task worker both served: ", var_export(isset($pids[$first], $pids[$second]), true), "\n";
echo "task worker generation: {$st['generations']['task_worker']}, request workers unchanged: ",
    var_export($srv->readyPids($st) === $workers, true), "\n";
foreach ($conns as $c) {
    $c->close();
}

/* kill -9 while a task runs: its caller gets an exception at once, not a hang. */
$slow = new HttpTestConn($srv->port);
$slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->http->waitFor("slow task $second", 3);
workers_kill($second, 9);
$r = $slow->response();
echo "the caller of the killed task: ", json_decode($r['body'], true)['out'], "\n";
$st = $srv->waitStatus(fn($st) => ($p = $taskPid($st)) !== null && $p !== $second, 5, 'a replacement task worker');
$j = workers_get_json($srv->port, '/');
echo "the replacement answers: ", var_export($j['out'] === $taskPid($st), true), ", restarts: {$st['restarts']}\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
failed tasks during the reload: 0
old and new task worker both served: true
task worker generation: 2, request workers unchanged: true
the caller of the killed task: Rapier\Exception: The task worker exited before answering (see the server log); the task may or may not have run
the replacement answers: true, restarts: 1
exit: 0
leftover processes: none
