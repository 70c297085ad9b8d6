--TEST--
Timer intervals are validated
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    foreach ([fn() => Rapier\Timer::after(-1, fn() => 1), fn() => Rapier\Timer::tick(0, fn() => 1), fn() => Rapier\Timer::after(NAN, fn() => 1),
        fn() => Rapier\Timer::tick(NAN, fn() => 1)] as $f) {
        try { $f(); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
    }
});
?>
--EXPECTF--
Rapier\Timer::after(): Argument #1 ($seconds) must be greater than or equal to 0
Rapier\Timer::tick(): Argument #1 ($seconds) must be greater than 0
Rapier\Timer::after(): Argument #1 ($seconds) must not be NAN
Rapier\Timer::tick(): Argument #1 ($seconds) must not be NAN
