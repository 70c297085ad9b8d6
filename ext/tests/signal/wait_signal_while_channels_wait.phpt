--TEST--
Signals: Coroutine::waitSignal() returns the signal that came while the other coroutines wait on channels, where such a run used to end in a DeadlockException; the signal is blocked only while it is awaited
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan'); ?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
$sender = null;
var_dump(rapier_test_signal_blocked(SIGUSR1));
Rapier\run(function () use (&$sender) {
    $jobs = new Rapier\Channel();
    Rapier\go(function () use ($jobs) {
        while (($job = $jobs->pop()) !== false) {
            echo "job $job\n";
        }
        echo "consumer stopped\n";
    });
    Rapier\go(function () {
        var_dump(rapier_test_signal_blocked(SIGUSR1));
    });
    $sender = rapier_test_signal_when_idle(SIGUSR1);
    $signo = Rapier\Coroutine::waitSignal(SIGUSR1);
    echo "got ", $signo === SIGUSR1 ? 'SIGUSR1' : $signo, "\n";
    var_dump(rapier_test_signal_blocked(SIGUSR1));
    $jobs->push(1);
    $jobs->close();
});
proc_close($sender);
var_dump(rapier_test_signal_blocked(SIGUSR1));
echo "done\n";
?>
--EXPECT--
bool(false)
bool(true)
got SIGUSR1
bool(false)
job 1
consumer stopped
bool(false)
done
