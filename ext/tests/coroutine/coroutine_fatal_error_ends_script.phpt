--TEST--
A fatal error inside a coroutine ends the script like stock PHP, without a crash
--EXTENSIONS--
rapier
--XLEAK--
A fatal error leaves the objects of suspended fibers unfreed, as it does with plain Fibers in stock PHP (under make asan, the --ENV-- turns LeakSanitizer off for the same reason).
--ENV--
LSAN_OPTIONS=detect_leaks=0
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
Rapier\run(function () {
    Rapier\go(fn() => Rapier\Coroutine::sleep(5));
    $ch = new Rapier\Channel();
    Rapier\go(fn() => $ch->pop());
    Rapier\Coroutine::sleep(0.001);
    trigger_error("fatal inside a coroutine", E_USER_ERROR);
});
echo "not reached\n";
?>
--EXPECTF--

Fatal error: fatal inside a coroutine in %s on line %d
shutdown ran
