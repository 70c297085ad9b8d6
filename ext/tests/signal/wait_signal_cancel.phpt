--TEST--
Signals: Coroutine::cancel() of a coroutine in waitSignal() throws Rapier\CanceledException from the wait and gives the signal back
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/signal.inc';
Rapier\run(function () {
    $waiter = Rapier\go(function () {
        try {
            Rapier\Coroutine::waitSignal([SIGUSR1, SIGTERM]);
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    });
    Rapier\Coroutine::sleep(0);
    var_dump(rapier_test_signal_blocked(SIGUSR1), rapier_test_signal_blocked(SIGTERM));
    var_dump(Rapier\Coroutine::cancel($waiter));
    Rapier\Coroutine::sleep(0);
    var_dump(rapier_test_signal_blocked(SIGUSR1), rapier_test_signal_blocked(SIGTERM));
});
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
Rapier\CanceledException: Coroutine was canceled while waiting for a signal
bool(false)
bool(false)
