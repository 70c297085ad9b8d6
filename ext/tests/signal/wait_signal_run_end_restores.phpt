--TEST--
Signals: a fatal error that ends a run while a coroutine waits for signals gives them back: the shutdown functions run with them unblocked
--EXTENSIONS--
rapier
--XLEAK--
A fatal error leaves the objects of suspended fibers unfreed, as it does with plain Fibers in stock PHP (under make asan, the --ENV-- turns LeakSanitizer off for the same reason).
--ENV--
LSAN_OPTIONS=detect_leaks=0
--FILE--
<?php
require __DIR__ . '/signal.inc';
register_shutdown_function(function () {
    echo "after the fatal error: ";
    var_dump(rapier_test_signal_blocked(SIGUSR1), rapier_test_signal_blocked(SIGHUP));
});
Rapier\run(function () {
    Rapier\go(fn() => Rapier\Coroutine::waitSignal([SIGUSR1, SIGHUP]));
    Rapier\Coroutine::sleep(0);
    var_dump(rapier_test_signal_blocked(SIGUSR1), rapier_test_signal_blocked(SIGHUP));
    trigger_error('fatal in the run', E_USER_ERROR);
});
?>
--EXPECTF--
bool(true)
bool(true)

Fatal error: fatal in the run in %s on line %d
after the fatal error: bool(false)
bool(false)
