--TEST--
Rapier\run() inside a coroutine is refused
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    try {
        Rapier\run(fn() => 1);
    } catch (Rapier\Exception $e) {
        echo $e->getMessage(), "\n";
    }
});
?>
--EXPECTF--
Cannot call Rapier\run() while a scheduler is running: use Rapier\go() to start more coroutines
