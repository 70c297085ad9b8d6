--TEST--
Channel: a fatal error while coroutines wait on a channel leaves it usable in shutdown functions
--EXTENSIONS--
rapier
--XLEAK--
A fatal error leaves the objects of suspended fibers unfreed, as it does with plain Fibers in stock PHP (under make asan, the --ENV-- turns LeakSanitizer off for the same reason).
--ENV--
LSAN_OPTIONS=detect_leaks=0
--FILE--
<?php
$ch = new Rapier\Channel(1);
register_shutdown_function(function () use ($ch) {
    echo "shutdown: push ", var_export($ch->push('late', 0), true), "\n";
    echo "shutdown: pop ", var_export($ch->pop(0), true), "\n";
});
Rapier\run(function () use ($ch) {
    Rapier\go(fn () => $ch->pop());
    Rapier\go(fn () => $ch->pop());
    Rapier\Coroutine::sleep(0.01);
    trigger_error("boom", E_USER_ERROR);
});
?>
--EXPECTF--
Fatal error: boom in %s on line %d
shutdown: push true
shutdown: pop 'late'
