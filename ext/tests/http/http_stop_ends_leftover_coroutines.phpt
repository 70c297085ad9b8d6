--TEST--
HTTP: once workerStop has returned, coroutines left running (a ticker, a consumer, one a handler left behind) are canceled quietly and pending timers cleared, so start() returns; with workers too
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * Before, a sleep loop or a Timer::tick() kept start() from ever returning
 * (a forked worker was SIGKILLed by the master), and a consumer blocked on
 * a channel made start() throw a DeadlockException.
 */
$code = <<<'PHP'
function on_worker_start($server, $id) {
    Rapier\go(function () {
        try {
            while (true) {
                Rapier\Coroutine::sleep(0.05);
            }
        } finally {
            echo "ticker loop: finally\n";
        }
    });
    $jobs = new Rapier\Channel();
    Rapier\go(function () use ($jobs) {
        try {
            $jobs->pop();
        } finally {
            echo "consumer: finally\n";
        }
    });
    /*
     * Pending all along, like the hour-long one: a tick due as workerStop's
     * sleep ends starts a coroutine of its own that the count below can
     * catch queued (the likely cause of one failure under valgrind on a
     * loaded machine).
     */
    Rapier\Timer::tick(60, function () {});
    Rapier\Timer::after(3600, function () { echo "the hour-long timer fired\n"; });
}
PHP;
$after = <<<'PHP'
$server->on('workerStop', function () {
    echo "workerStop\n";
    /* Left alone while workerStop runs, which may wait on I/O. */
    Rapier\Coroutine::sleep(0.1);
    echo "workerStop returns with ", Rapier\Coroutine::count() - 1, " other coroutines running\n";
});
PHP;
$handler = 'function ($req, $res) {
    Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(3600);
        } catch (Rapier\CanceledException $e) {
            echo "left behind by a handler: ", $e->getMessage(), "\n";
        }
    });
    $res->end("ok");
}';

foreach ([0, 1] as $workers) {
    echo "-- workers: $workers\n";
    $srv = http_server_start($handler, ['workers' => $workers, 'shutdown_timeout' => 2], $code, $after);
    $srv->waitFor("ready\n", 10);
    echo http_get($srv->port, '/')['body'], "\n";
    $srv->signal(15);
    $r = $srv->stop(0, 20);
    $lines = explode("\n", trim($r['out']));
    /* The cancels land in the order the coroutines started; only what follows workerStop matters. */
    $tail = array_slice($lines, array_search('workerStop', $lines, true));
    $canceled = array_slice($tail, 2, 3);
    sort($canceled);
    echo "exit: {$r['code']}\n", $tail[0], "\n", $tail[1], "\n", implode("\n", $canceled), "\n",
        implode("\n", array_slice($tail, 5)), "\n";
    echo "stderr: ", trim(preg_replace('/^.*(started|ready|stopped|exited|stopping|stop).*$/mi', '', $r['err'])) ?: 'nothing reported', "\n";
}
?>
--EXPECT--
-- workers: 0
ok
exit: 0
workerStop
workerStop returns with 3 other coroutines running
consumer: finally
left behind by a handler: Coroutine was canceled while sleeping
ticker loop: finally
start() returned
stderr: nothing reported
-- workers: 1
ok
exit: 0
workerStop
workerStop returns with 3 other coroutines running
consumer: finally
left behind by a handler: Coroutine was canceled while sleeping
ticker loop: finally
start() returned
stderr: nothing reported
