--TEST--
Signals: a process forked while a coroutine waits for a signal (proc_open(), pcntl_fork()) starts with that signal at its old mask, not blocked for the parent's waiter
--EXTENSIONS--
rapier
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan');
/* Valgrind reports the PHP heap of a child that ends without shutting down (a signal, SIGKILL) as lost. */
if (rapier_test_under_valgrind()) die('skip a forked child dies by a signal: the asan stage runs it');
?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
Rapier\run(function () {
    $waiter = Rapier\go(function () {
        try {
            Rapier\Coroutine::waitSignal([SIGUSR1, SIGHUP]);
        } catch (Rapier\CanceledException $e) {
            echo "waiter canceled\n";
        }
    });
    Rapier\Coroutine::sleep(0);
    echo "parent blocks SIGUSR1: ", var_export(rapier_test_signal_blocked(SIGUSR1), true), "\n";
    $p = proc_open(['grep', '^SigBlk:', '/proc/self/status'], [1 => ['pipe', 'w']], $pipes);
    echo "proc_open child: ", stream_get_contents($pipes[1]);
    proc_close($p);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $blocked = rapier_test_signal_blocked(SIGUSR1) || rapier_test_signal_blocked(SIGHUP);
        echo "pcntl_fork child blocks them: ", var_export($blocked, true), "\n";
        posix_kill(getmypid(), SIGKILL);
    }
    pcntl_waitpid($pid, $status);
    Rapier\Coroutine::cancel($waiter);
});
?>
--EXPECT--
parent blocks SIGUSR1: true
proc_open child: SigBlk:	0000000000000000
pcntl_fork child blocks them: false
waiter canceled
