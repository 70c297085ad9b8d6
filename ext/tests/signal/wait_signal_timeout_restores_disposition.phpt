--TEST--
Signals: waitSignal() returns false when its timeout passes first; the signal then has its normal disposition again: a pcntl_signal() handler runs for it, and with none its default action ends the process
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
pcntl_async_signals(true);
$sender = null;
Rapier\run(function () use (&$sender) {
    var_dump(Rapier\Coroutine::waitSignal([SIGUSR1, SIGUSR2], 0.01));
    var_dump(rapier_test_signal_blocked(SIGUSR1));
    $sleeper = Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(60);
        } catch (Rapier\CanceledException $e) {
            echo "sleep canceled by the handler\n";
        }
    });
    pcntl_signal(SIGUSR1, function (int $signo) use ($sleeper) {
        echo "handler got SIGUSR1\n";
        Rapier\Coroutine::cancel($sleeper);
    });
    $sender = rapier_test_signal_when_idle(SIGUSR1);
});
proc_close($sender);

/* Default action: a forked child whose wait timed out sends itself SIGUSR1. */
$pid = pcntl_fork();
if ($pid === 0) {
    pcntl_signal(SIGUSR1, SIG_DFL);
    Rapier\run(function () { var_dump(Rapier\Coroutine::waitSignal(SIGUSR1, 0.01)); });
    posix_kill(getmypid(), SIGUSR1);
    echo "survived SIGUSR1\n";
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "child ended by signal ", pcntl_wifsignaled($status) ? pcntl_wtermsig($status) : 'none', "\n";
?>
--EXPECT--
bool(false)
bool(false)
handler got SIGUSR1
sleep canceled by the handler
bool(false)
child ended by signal 10
