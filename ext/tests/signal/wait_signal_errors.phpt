--TEST--
Signals: waitSignal() validates its arguments (empty list, non-int, out of range, signals that cannot be awaited, timeout) and needs a coroutine
--EXTENSIONS--
rapier
--FILE--
<?php
function attempt(...$args): void
{
    try {
        Rapier\Coroutine::waitSignal(...$args);
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
attempt(SIGUSR1);
Rapier\run(function () {
    attempt([]);
    attempt([SIGUSR1, '12']);
    attempt([SIGUSR1, 1.0]);
    attempt(0);
    attempt([65]);
    attempt(-1);
    foreach ([SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGPROF, 32, 33] as $signo) {
        attempt([SIGUSR1, $signo]);
    }
    attempt(SIGUSR1, NAN);
    attempt(SIGUSR1, 1e10);
    attempt('SIGUSR1');
});
?>
--EXPECT--
Rapier\Exception: Cannot call Rapier\Coroutine::waitSignal() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must not be empty: give at least one signal number
TypeError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must hold only signal numbers of type int, string given
TypeError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must hold only signal numbers of type int, float given
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must hold signal numbers between 1 and 64, 0 given
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must hold signal numbers between 1 and 64, 65 given
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must hold signal numbers between 1 and 64, -1 given
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGKILL (9): the kernel never lets a process catch it
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGSTOP (19): the kernel never lets a process catch it
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGSEGV (11): it reports a fault of the instruction the process is running, which cannot wait
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGBUS (7): it reports a fault of the instruction the process is running, which cannot wait
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGFPE (8): it reports a fault of the instruction the process is running, which cannot wait
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGILL (4): it reports a fault of the instruction the process is running, which cannot wait
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGTRAP (5): it reports a fault of the instruction the process is running, which cannot wait
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGSYS (31): it reports a fault of the instruction the process is running, which cannot wait
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold SIGPROF (27): PHP's max_execution_time timer uses it
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold signal 32: the C library uses it for its threads
ValueError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) cannot hold signal 33: the C library uses it for its threads
ValueError: Rapier\Coroutine::waitSignal(): Argument #2 ($timeout) must not be NAN
ValueError: Rapier\Coroutine::waitSignal(): Argument #2 ($timeout) must be at most 9000000000 seconds
TypeError: Rapier\Coroutine::waitSignal(): Argument #1 ($signals) must be of type array|int, string given
