--TEST--
Signals: exit() in a coroutine unwinds a coroutine waiting in waitSignal() (its finally runs) and gives the signal back before the shutdown functions run
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/signal.inc';
register_shutdown_function(function () {
    echo "after exit: ";
    var_dump(rapier_test_signal_blocked(SIGUSR2));
});
Rapier\run(function () {
    Rapier\go(function () {
        try {
            Rapier\Coroutine::waitSignal(SIGUSR2);
        } finally {
            echo "waiter unwound\n";
        }
    });
    Rapier\Coroutine::sleep(0);
    var_dump(rapier_test_signal_blocked(SIGUSR2));
    exit(0);
});
?>
--EXPECT--
bool(true)
waiter unwound
after exit: bool(false)
