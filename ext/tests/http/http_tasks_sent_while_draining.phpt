--TEST--
HTTP tasks: a task sent while the task worker drains (a task of the same request worker still running there) goes to its successor, and both callers get their results; a draining task worker killed mid-task fails only the task it ran
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip forks several servers: too slow under valgrind'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) use ($server) {
    try {
        $out = $server->task($req->path === "/slow" ? "slow" : "quick");
    } catch (Throwable $e) {
        $out = get_class($e) . ": " . $e->getMessage();
    }
    $res->json(["out" => $out]);
}';
$after = '$server->on("task", function ($data) {
    if ($data === "slow") {
        echo "slow task " . getmypid() . "\n";
        Rapier\Coroutine::sleep(1);
    }
    return getmypid();
});';
$srv = new WorkersTestServer($handler, ['workers' => 1, 'task_workers' => 1], '', $after);
$taskPid = function (array $st, string $state): ?int {
    foreach ($st['workers'] as $w) {
        if ($w['role'] === 'task_worker' && $w['state'] === $state) {
            return $w['pid'];
        }
    }
    return null;
};
$st = $srv->waitStatus(fn($st) => $taskPid($st, 'ready') !== null, 5, 'the task worker ready');
$first = $taskPid($st, 'ready');

$slow = new HttpTestConn($srv->port);
$slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->http->waitFor("slow task $first", 3);
workers_kill($srv->masterPid, SIGUSR2);
$srv->waitStatus(fn($st) => $taskPid($st, 'draining') === $first, 3, 'the first task worker draining');
usleep(100000);
$j = workers_get_json($srv->port, '/');
echo "a task sent during the drain: ", is_int($j['out']) && $j['out'] !== $first ? 'served by the successor' : var_export($j['out'], true), "\n";
$r = $slow->response();
echo "the task running at the drain: ", json_decode($r['body'], true)['out'] === $first ? 'finished by the first' : $r['body'], "\n";

/* Again, and the draining one is killed: its caller learns it, the next task goes to the third. */
$st = $srv->waitStatus(fn($st) => $taskPid($st, 'ready') === $j['out'], 3, 'the second task worker ready');
$second = $j['out'];
$slow = new HttpTestConn($srv->port);
$slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->http->waitFor("slow task $second", 3);
workers_kill($srv->masterPid, SIGUSR2);
$srv->waitStatus(fn($st) => $taskPid($st, 'draining') === $second, 3, 'the second task worker draining');
usleep(100000);
$j = workers_get_json($srv->port, '/');
echo "during the second drain: ", is_int($j['out']) && !in_array($j['out'], [$first, $second], true) ? 'served by the third' : var_export($j['out'], true), "\n";
workers_kill($second, 9);
$r = $slow->response();
echo "the caller of the killed draining worker: ", json_decode($r['body'], true)['out'], "\n";
$j2 = workers_get_json($srv->port, '/');
echo "afterwards: ", $j2['out'] === $j['out'] ? 'served by the third' : var_export($j2['out'], true), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
a task sent during the drain: served by the successor
the task running at the drain: finished by the first
during the second drain: served by the third
the caller of the killed draining worker: Rapier\Exception: The task worker exited before answering (see the server log); the task may or may not have run
afterwards: served by the third
exit: 0
leftover processes: none
