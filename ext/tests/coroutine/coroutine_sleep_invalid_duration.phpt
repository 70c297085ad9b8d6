--TEST--
Negative or NaN durations get a ValueError
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    foreach ([-1.0, NAN] as $bad) {
        try {
            Rapier\Coroutine::sleep($bad);
        } catch (ValueError $e) {
            echo $e->getMessage(), "\n";
        }
    }
});
?>
--EXPECTF--
Rapier\Coroutine::sleep(): Argument #1 ($seconds) must be greater than or equal to 0
Rapier\Coroutine::sleep(): Argument #1 ($seconds) must not be NAN
