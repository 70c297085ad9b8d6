--TEST--
Signals: waitSignal() takes a list of signals and returns the one that came; one arrival wakes every coroutine waiting for it, and a waiter of another signal waits on
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan'); ?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
$senders = [];
Rapier\run(function () use (&$senders) {
    $hup = Rapier\go(function () {
        try {
            Rapier\Coroutine::waitSignal(SIGHUP);
        } catch (Rapier\CanceledException $e) {
            echo "SIGHUP waiter canceled\n";
        }
    });
    $wg = new Rapier\WaitGroup();
    foreach (['a' => [SIGUSR1, SIGUSR2], 'b' => [SIGUSR2], 'c' => SIGUSR2] as $name => $signals) {
        $wg->add();
        Rapier\go(function () use ($name, $signals, $wg) {
            $signo = Rapier\Coroutine::waitSignal($signals);
            echo "$name got ", $signo === SIGUSR2 ? 'SIGUSR2' : $signo, "\n";
            $wg->done();
        });
    }
    $senders[] = rapier_test_signal_when_idle(SIGUSR2);
    $wg->wait();
    var_dump(rapier_test_signal_blocked(SIGUSR1), rapier_test_signal_blocked(SIGUSR2), rapier_test_signal_blocked(SIGHUP));
    Rapier\Coroutine::cancel($hup);
});
array_map('proc_close', $senders);
var_dump(rapier_test_signal_blocked(SIGHUP));
?>
--EXPECT--
a got SIGUSR2
b got SIGUSR2
c got SIGUSR2
bool(false)
bool(false)
bool(true)
SIGHUP waiter canceled
bool(false)
