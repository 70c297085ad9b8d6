--TEST--
Signals: a handler that runs while every coroutine waits cannot suspend (PHP forbids it in signal handlers) but can start a coroutine that does, which wakes the one waiting for it; without async signals the handler runs at pcntl_signal_dispatch() as in stock PHP
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
    $stop = new Rapier\Channel(1);
    pcntl_signal(SIGTERM, function () use ($stop) {
        try {
            Rapier\Coroutine::sleep(0.001);
        } catch (Rapier\Exception $e) {
            echo "sleep in the handler: ", get_class($e), "\n";
        }
        Rapier\go(function () use ($stop) {
            Rapier\Coroutine::sleep(0.001);
            $stop->push('SIGTERM');
        });
    });
    $sender = rapier_test_signal_when_idle(SIGTERM);
    /* The timeout keeps a timer in the loop: with nothing there, the run would end in a deadlock. */
    $why = $stop->pop(60);
    echo "consumer woken by: ", var_export($why, true), "\n";
});
proc_close($sender);

/* Synchronous signals: nothing runs until the program asks. */
pcntl_async_signals(false);
$ran = false;
pcntl_signal(SIGUSR2, function () use (&$ran) { $ran = true; });
Rapier\run(function () use (&$sender, &$ran) {
    $sender = rapier_test_signal_when_idle(SIGUSR2);
    $passes = 0;
    while (!pcntl_signal_dispatch() || !$ran) {
        if ($passes++ === 0) {
            echo "not run before dispatch: ", var_export(!$ran, true), "\n";
        }
        Rapier\Coroutine::sleep(0.01);
    }
    echo "run by pcntl_signal_dispatch(): true\n";
});
proc_close($sender);
?>
--EXPECT--
sleep in the handler: Rapier\Exception
consumer woken by: 'SIGTERM'
not run before dispatch: true
run by pcntl_signal_dispatch(): true
