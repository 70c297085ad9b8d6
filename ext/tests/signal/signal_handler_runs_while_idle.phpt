--TEST--
Signals: a pcntl_signal() handler runs as soon as its signal arrives while every coroutine waits, not when the next event comes, and can cancel a waiting coroutine
--EXTENSIONS--
rapier
pcntl
--SKIPIF--
<?php if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan'); ?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
pcntl_async_signals(true);
$sender = null;
Rapier\run(function () use (&$sender) {
    $sleeper = Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(60);
            echo "slept a minute: the handler did not run while the loop slept\n";
        } catch (Rapier\CanceledException $e) {
            echo "sleep canceled by the handler\n";
        }
    });
    pcntl_signal(SIGUSR1, function (int $signo) use ($sleeper) {
        echo "handler: ", $signo === SIGUSR1 ? 'SIGUSR1' : $signo, "\n";
        var_dump(Rapier\Coroutine::cancel($sleeper));
    });
    $sender = rapier_test_signal_when_idle(SIGUSR1);
});
proc_close($sender);
echo "done\n";
?>
--EXPECT--
handler: SIGUSR1
bool(true)
sleep canceled by the handler
done
