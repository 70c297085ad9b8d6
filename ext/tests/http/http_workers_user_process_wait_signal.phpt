--TEST--
HTTP workers: a user process waits for the stop's SIGTERM with Coroutine::waitSignal() while another coroutine waits on a channel, finishes its job and exits cleanly (exit 0, not restarted); in a worker, waiting for a signal the server owns throws and names workerStop
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$code = '
function on_worker_start($server, $id) {
    foreach ([15 /* SIGTERM */, 10 /* SIGUSR1 */] as $signo) {
        try {
            Rapier\Coroutine::waitSignal($signo, 0.01);
            echo "worker: waited for $signo\n";
        } catch (Rapier\Exception $e) {
            /* One write: the user process prints at the same time. */
            echo "worker: " . $e->getMessage() . "\n";
        }
    }
}
';
$after = '
$server->addProcess(function () {
    $jobs = new Rapier\Channel();
    Rapier\go(function () use ($jobs) {
        while (($job = $jobs->pop()) !== false) {
            echo "job $job\n";
        }
        echo "consumer stopped\n";
    });
    /* Runs once the main coroutine waits in waitSignal(): SIGTERM is taken by then. */
    Rapier\go(function () { echo "consumer waits\n"; });
    $signo = Rapier\Coroutine::waitSignal(SIGTERM);
    echo "user process: got signal $signo\n";
    $jobs->close();
});
';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1], $code, $after);
echo "waiting: ", var_export($srv->http->waitFor("consumer waits\n", 10), true), "\n";
$r = $srv->stop();
workers_report_stop($r);
echo preg_replace('/^(?!worker:|user process|consumer stopped).*\n/m', '', $r['out']);
echo "exited cleanly: ", var_export((bool) preg_match('/user process #0 \(pid \d+, generation 1\) exited with code 0/', $r['err']), true), "\n";
echo "not restarted: ", var_export(!str_contains($r['err'], 'restarting user process'), true), "\n";
?>
--EXPECT--
waiting: true
exit: 0
leftover processes: none
worker: Cannot wait for SIGTERM here: the HTTP server owns it in this worker (a stop or a reload ends the worker). Do the work that must run at a stop in the workerStopping event ($server->on('workerStopping', ...)), which runs as the stop begins, beside the requests still being handled, or in workerStop, which runs once the worker has drained
worker: Cannot wait for SIGUSR1 here: the HTTP server owns it in this worker (a stop or a reload ends the worker). Do the work that must run at a stop in the workerStopping event ($server->on('workerStopping', ...)), which runs as the stop begins, beside the requests still being handled, or in workerStop, which runs once the worker has drained
user process: got signal 15
consumer stopped
exited cleanly: true
not restarted: true
