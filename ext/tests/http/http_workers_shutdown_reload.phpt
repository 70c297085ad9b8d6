--TEST--
HTTP workers: Server::reload() from a handler replaces the workers and task workers (reload(true) the task workers alone), and Server::shutdown() from a user process stops the whole server gracefully, a request in flight completing; in a process a user process forked both throw
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
require __DIR__ . '/workers.inc';
$flag = tempnam(sys_get_temp_dir(), 'rapier-shutdown-flag-');
unlink($flag);
$handler = 'function ($req, $res) use ($server) {
    switch ($req->path) {
        case "/reload":
            $server->reload();
            $res->end("reload asked by " . getmypid());
            break;
        case "/reload-tasks":
            $server->reload(true);
            $res->end("task reload asked");
            break;
        case "/slow":
            echo "slow request in " . getmypid() . "\n";
            Rapier\Coroutine::sleep(1);
            $res->end("slow request completed");
            break;
        case "/fork":
            try {
                pcntl_fork();
            } catch (Rapier\Exception $e) {
                $res->end(get_class($e) . "\n");
            }
            break;
        default:
            $res->json(["pid" => getmypid(), "task" => $server->task("pid")]);
    }
}';
$forkOut = tempnam(sys_get_temp_dir(), 'rapier-fork-');
$after = '$server->on("task", fn ($data) => getmypid());
$server->addProcess(function () use ($server) {
    /* A process forked from one of the server\'s (a user process may fork) is none of its own. */
    $pid = pcntl_fork();
    if ($pid === 0) {
        foreach (["shutdown", "reload"] as $method) {
            try {
                $server->$method();
                $result = "no exception";
            } catch (Rapier\Exception $e) {
                $result = $e->getMessage();
            }
            file_put_contents(' . var_export($forkOut, true) . ', "forked from the user process, $method(): $result\n", FILE_APPEND);
        }
        pcntl_exec("/bin/true");
    }
    pcntl_waitpid($pid, $status);
    /*
     * The master answers with the SIGTERM it sends every process at a stop,
     * which can arrive as soon as shutdown() returns: SIGTERM is taken
     * (the main coroutine waits for it) before the stop is asked, in a
     * coroutine go() queues to run once the main one waits.
     */
    Rapier\go(function () use ($server) {
        while (!file_exists(' . var_export($flag, true) . ')) {
            Rapier\Coroutine::sleep(0.02);
        }
        echo "user process asks for the stop\n";
        $server->shutdown();
    });
    Rapier\Coroutine::waitSignal(15);
    echo "user process got SIGTERM\n";
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
$workers = $srv->readyPids($st);
$task = $taskPid($st);
$r = workers_get_json($srv->port);
echo "served, task ran on the task worker: ", var_export(in_array($r['pid'], $workers, true) && $r['task'] === $task, true), "\n";

$body = http_get($srv->port, '/reload')['body'];
echo preg_match('~^reload asked by (\d+)$~', $body, $m) && in_array((int) $m[1], $workers, true) ? 'reload asked' : $body, "\n";
$st = $srv->waitStatus(fn($st) => count($srv->readyPids($st)) === 2 && !array_intersect($srv->readyPids($st), $workers)
    && !in_array($taskPid($st), [null, $task], true), 10, 'new workers and a new task worker');
$workers2 = $srv->readyPids($st);
$task2 = $taskPid($st);
echo "old workers gone: ", var_export(http_test_poll(fn() => count(array_filter($workers, 'workers_proc_exited')) === 2, 10), true), "\n";
$r = workers_get_json($srv->port);
echo "served by the new generation: ", var_export(in_array($r['pid'], $workers2, true) && $r['task'] === $task2, true), "\n";

echo "pcntl_fork() in a handler: ", http_get($srv->port, '/fork')['body'];
echo http_get($srv->port, '/reload-tasks')['body'], "\n";
$st = $srv->waitStatus(fn($st) => !in_array($taskPid($st), [null, $task2], true), 10, 'a new task worker');
echo "request workers stayed: ", var_export($srv->readyPids($st) === $workers2, true), "\n";
$task3 = $taskPid($st);
$r = workers_get_json($srv->port);
echo "task served by the new task worker: ", var_export($r['task'] === $task3, true), "\n";

/* The stop: asked by the user process while a request is in flight. */
$c = new HttpTestConn($srv->port);
$c->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->http->waitFor("slow request in ", 3)) {
    die("the slow request did not reach a handler\n");
}
touch($flag);
$r = $c->response(10);
echo "in-flight request: {$r['status']} {$r['body']}\n";
$res = $srv->stop(0, 10);
unlink($flag);
workers_report_stop($res);
echo "user process asked: ", substr_count($res['out'], "user process asks for the stop"), ", then got SIGTERM: ",
    substr_count($res['out'], "user process got SIGTERM"), "\n";
echo preg_match('~user process #0 \(pid \d+, generation 1\) asked the server to stop: stopping gracefully~', $res['err'])
    ? "the master logged who asked" : "stderr:\n{$res['err']}", "\n";
echo preg_match('~worker #\d \(pid (?:' . implode('|', $workers) . '), generation 1\) asked for a reload of the workers and task workers~', $res['err'])
    ? "the master logged the reload" : "stderr:\n{$res['err']}", "\n";
echo "pid file: ", file_exists($srv->pidFile) ? "still there" : "removed", "\n";
echo file_get_contents($forkOut);
unlink($forkOut);
?>
--EXPECT--
served, task ran on the task worker: true
reload asked
old workers gone: true
served by the new generation: true
pcntl_fork() in a handler: Rapier\Exception
task reload asked
request workers stayed: true
task served by the new task worker: true
in-flight request: 200 slow request completed
exit: 0
leftover processes: none
user process asked: 1, then got SIGTERM: 1
the master logged who asked
the master logged the reload
pid file: removed
forked from the user process, shutdown(): Cannot shut down the server from a process forked from one of its processes (pcntl_fork()): call it in the server's process, or signal the master
forked from the user process, reload(): Cannot reload the server from a process forked from one of its processes (pcntl_fork()): call it in the server's process, or signal the master
