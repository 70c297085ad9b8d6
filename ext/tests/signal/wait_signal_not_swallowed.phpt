--TEST--
Signals: while a coroutine waits for SIGUSR1, a SIGUSR2 that nobody waits for reaches its pcntl_signal() handler, and a SIGUSR1 after the wait ended reaches its own: Rapier takes only awaited signals, only while awaited
--EXTENSIONS--
rapier
pcntl
--SKIPIF--
<?php if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan'); ?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
pcntl_async_signals(true);
$senders = [];
Rapier\run(function () use (&$senders) {
    $waiter = Rapier\go(function () {
        try {
            Rapier\Coroutine::waitSignal(SIGUSR1);
        } catch (Rapier\CanceledException $e) {
            echo "SIGUSR1 waiter canceled by the SIGUSR2 handler\n";
        }
    });
    pcntl_signal(SIGUSR1, function () {
        echo "SIGUSR1 handler while its waiter waits: swallowed the wait\n";
    });
    pcntl_signal(SIGUSR2, function () use ($waiter) {
        echo "SIGUSR2 handler\n";
        Rapier\Coroutine::cancel($waiter);
    });
    $senders[] = rapier_test_signal_when_idle(SIGUSR2);
    Rapier\Coroutine::sleep(0);
    while (Rapier\Coroutine::exists($waiter)) {
        Rapier\Coroutine::sleep(0.01);
    }
    /* Nobody waits for SIGUSR1 now: its handler runs, and cancels this sleep. */
    $stop = Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(60);
        } catch (Rapier\CanceledException $e) {
        }
    });
    pcntl_signal(SIGUSR1, function () use ($stop) {
        echo "SIGUSR1 handler\n";
        Rapier\Coroutine::cancel($stop);
    });
    $senders[] = rapier_test_signal_when_idle(SIGUSR1);
});
array_map('proc_close', $senders);
echo "done\n";
?>
--EXPECT--
SIGUSR2 handler
SIGUSR1 waiter canceled by the SIGUSR2 handler
SIGUSR1 handler
done
