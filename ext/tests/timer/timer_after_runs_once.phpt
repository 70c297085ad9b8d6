--TEST--
Timer::after() calls its callback once, with arguments, in a new coroutine
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $main = Rapier\Coroutine::id();
    Rapier\Timer::after(0.05, function ($a, $b) use ($main) {
        echo "fired with $a $b, in a new coroutine: ", var_export(Rapier\Coroutine::id() !== $main, true), "\n";
    }, "x", "y");
    Rapier\Timer::after(0.001, fn() => print("earlier timer first\n"));
});
echo "done\n";
?>
--EXPECTF--
earlier timer first
fired with x y, in a new coroutine: true
done
