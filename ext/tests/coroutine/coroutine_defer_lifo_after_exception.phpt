--TEST--
Coroutine::defer() callbacks run last-in first-out, also after an exception
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\Coroutine::setExceptionHandler(fn($e) => print("uncaught: " . $e->getMessage() . "\n"));
Rapier\run(function () {
    Rapier\go(function () {
        Rapier\Coroutine::defer(fn() => print("defer 1\n"));
        Rapier\Coroutine::defer(fn() => print("defer 2\n"));
        Rapier\Coroutine::sleep(0.001);
        throw new Exception("failed");
    });
});
?>
--EXPECTF--
defer 2
defer 1
uncaught: failed
