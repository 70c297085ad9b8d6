--TEST--
HTTP workers: addProcess() callables run in processes of their own, with coroutines; the master lists them, restarts one that is killed or throws (with PHP's uncaught-exception report; a coroutine it started does not hold it up), leaves them running across a reload, and stops them with the server
--EXTENSIONS--
rapier
--XLEAK--
A user process that throws ends in PHP's fatal error: its bailout leaves what PHP held unfreed, as a fatal error does in stock PHP.
--FILE--
<?php
require __DIR__ . '/workers.inc';
$flag = tempnam(sys_get_temp_dir(), 'rapier-user-process-');
unlink($flag);
register_shutdown_function(fn() => @unlink($flag) + @unlink("$flag.2"));
$after = '
final class Consumer
{
    public function register(Rapier\Http\Server $server): void
    {
        /* A private method: callable where addProcess() was called, not from the script\'s top level. */
        $server->addProcess([$this, "consume"]);
    }

    private function consume(Rapier\Http\Server $server, int $id): void
    {
        /* Coroutines, a channel and timers work as in a worker. */
        $ch = new Rapier\Channel(1);
        Rapier\go(function () use ($ch) {
            Rapier\Coroutine::sleep(0.01);
            $ch->push("from a coroutine");
        });
        echo "process $id pid " . getmypid() . " workerId " . $server->workerId() . " got " . $ch->pop() . "\n";
        for (;;) {
            Rapier\Coroutine::sleep(0.05);
        }
    }
}
(new Consumer())->register($server);
$server->addProcess(function (Rapier\Http\Server $server, int $id) {
    if (!file_exists(' . var_export($flag, true) . ')) {
        touch(' . var_export($flag, true) . ');
        /* A coroutine it started (canceled then) must not hold its exception, and the restart, back. */
        Rapier\go(function () {
            for (;;) {
                Rapier\Coroutine::sleep(0.05);
            }
        });
        throw new RuntimeException("process $id failed");
    }
    echo "process $id pid " . getmypid() . " runs again\n";
    Rapier\Coroutine::sleep(60);
});
$server->addProcess(function (Rapier\Http\Server $server, int $id) {
    set_exception_handler(function (Throwable $e) {
        echo "handler: " . $e->getMessage() . "\n";
    });
    if (!file_exists(' . var_export("$flag.2", true) . ')) {
        touch(' . var_export("$flag.2", true) . ');
        throw new RuntimeException("process $id failed");
    }
    Rapier\Coroutine::sleep(60);
});
';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1], '', $after);

function user_processes(array $st): array
{
    $pids = [];
    foreach ($st['workers'] as $w) {
        if ($w['role'] === 'user_process' && $w['state'] === 'ready') {
            $pids[$w['index']] = $w['pid'];
        }
    }
    ksort($pids);
    return $pids;
}

$st = $srv->waitStatus(fn($st) => count(user_processes($st)) === 3 && $st['restarts'] === 2, 5, 'three user processes, two restarts');
[$p0, $p1, $p2] = user_processes($st);
echo "status: ", count($srv->readyPids($st)), " worker, user processes ", json_encode(array_keys(user_processes($st))),
    ", totals.user_processes {$st['totals']['user_processes']}, totals.processes {$st['totals']['processes']}\n";
echo "process 0 said: ", var_export($srv->http->waitFor("process 0 pid $p0 workerId -1 got from a coroutine\n", 3), true), "\n";
echo "process 1 ran again after throwing: ", var_export($srv->http->waitFor("process 1 pid $p1 runs again\n", 3), true), "\n";
echo "process 2's exception went to its handler: ", var_export($srv->http->waitFor("handler: process 2 failed\n", 3), true), "\n";
echo "the worker serves: ", var_export(workers_get_json($srv->port)['worker'] ?? null, true), "\n";

workers_kill($p0, SIGKILL);
$st = $srv->waitStatus(fn($st) => count(user_processes($st)) === 3 && !in_array($p0, user_processes($st), true), 5,
    'process 0 replaced');
$q0 = user_processes($st)[0];
echo "process 0 replaced: restarts {$st['restarts']}, says: ",
    var_export($srv->http->waitFor("process 0 pid $q0 workerId -1 got from a coroutine\n", 3), true), "\n";

$worker = $srv->readyPids($st)[0];
$srv->http->signal(SIGUSR1);
$st = $srv->waitStatus(fn($st) => $st['generations']['worker'] === 2 && count($srv->readyPids($st)) === 1
    && !in_array($worker, $srv->readyPids($st), true), 5, 'a reload');
echo "after a reload: worker generation {$st['generations']['worker']}, user processes kept: ",
    var_export(user_processes($st) === [0 => $q0, 1 => $p1, 2 => $p2], true), "\n";

$r = $srv->stop();
workers_report_stop($r);
echo "the uncaught exception was reported: ", var_export(str_contains($r['err'], 'PHP Fatal error:  Uncaught RuntimeException: process 1 failed')
    && !str_contains($r['err'], 'Uncaught RuntimeException: process 2'), true), "\n";
echo "the master logged: ", var_export(preg_match_all('/user process #[12] \(pid \d+, generation 1\) exited with code 255/', $r['err']) === 2
    && str_contains($r['err'], "user process #0 (pid $p0, generation 1) was killed by signal 9 (SIGKILL)")
    && str_contains($r['err'], "stopping user process #0 (pid $q0, generation 1)"), true), "\n";
echo "start() returned in a user process: ", substr_count($r['out'], "start() returned"), "\n";
?>
--EXPECT--
status: 1 worker, user processes [0,1,2], totals.user_processes 3, totals.processes 4
process 0 said: true
process 1 ran again after throwing: true
process 2's exception went to its handler: true
the worker serves: 0
process 0 replaced: restarts 3, says: true
after a reload: worker generation 2, user processes kept: true
exit: 0
leftover processes: none
the uncaught exception was reported: true
the master logged: true
start() returned in a user process: 1
