--TEST--
Signals: when the last waiter of one signal leaves, coroutines waiting for other signals keep theirs: a later SIGUSR2 still reaches its waiter after the SIGUSR1 waiter was woken
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan'); ?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
$senders = [];
Rapier\run(function () use (&$senders) {
    $usr2 = Rapier\go(function () {
        $signo = Rapier\Coroutine::waitSignal(SIGUSR2);
        echo "USR2 waiter got ", $signo === SIGUSR2 ? 'SIGUSR2' : $signo, "\n";
    });
    Rapier\go(function () use (&$senders) {
        $signo = Rapier\Coroutine::waitSignal(SIGUSR1);
        echo "USR1 waiter got ", $signo === SIGUSR1 ? 'SIGUSR1' : $signo, "\n";
        var_dump(rapier_test_signal_blocked(SIGUSR1), rapier_test_signal_blocked(SIGUSR2));
        $senders[] = rapier_test_signal_when_idle(SIGUSR2);
    });
    $senders[] = rapier_test_signal_when_idle(SIGUSR1);
});
array_map('proc_close', $senders);
var_dump(rapier_test_signal_blocked(SIGUSR2));
?>
--EXPECT--
USR1 waiter got SIGUSR1
bool(false)
bool(true)
USR2 waiter got SIGUSR2
bool(false)
