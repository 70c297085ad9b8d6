--TEST--
HTTP workers: a user process runs with the hooks on, ignores SIGINT and SIGQUIT sent to it (Ctrl-C reaches the whole group; the master acts on it), and one that installed a SIGTERM handler finishes its job before it exits at a stop (exit 0, not restarted)
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
require __DIR__ . '/workers.inc';
$after = '
$server->addProcess(function () {
    /* One write per line: the workers write to the same pipe. */
    echo "hooks: " . (Rapier\Runtime::getHooks() === Rapier\HOOK_ALL ? "all" : Rapier\Runtime::getHooks()) . "\n";
    $stop = false;
    pcntl_async_signals(true);
    pcntl_signal(SIGTERM, function () use (&$stop) { $stop = true; });
    echo "consumer waits\n";
    while (!$stop) {
        Rapier\Coroutine::sleep(0.05);
    }
    echo "finishing the job\n";
    Rapier\Coroutine::sleep(0.2);
    echo "job done\n";
});
';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1], '', $after);
echo "waiting: ", var_export($srv->http->waitFor("consumer waits\n", 3), true), "\n";
$st = $srv->status();
$pid = array_values(array_filter($st['workers'], fn($w) => $w['role'] === 'user_process'))[0]['pid'];
workers_kill($pid, 2);
workers_kill($pid, 3);
usleep(200000);
$st = $srv->status();
echo "alive after SIGINT and SIGQUIT: ", var_export(!workers_proc_exited($pid) && $st['restarts'] === 0, true), "\n";
$r = $srv->stop();
workers_report_stop($r);
echo preg_replace('/^(?!hooks|finishing|job).*\n/m', '', $r['out']);
echo "exited cleanly: ", var_export((bool) preg_match('/user process #0 \(pid \d+, generation 1\) exited with code 0/', $r['err']), true), "\n";
echo "not restarted: ", var_export(!str_contains($r['err'], 'restarting user process'), true), "\n";
?>
--EXPECT--
waiting: true
alive after SIGINT and SIGQUIT: true
exit: 0
leftover processes: none
hooks: all
finishing the job
job done
exited cleanly: true
not restarted: true
