--TEST--
Timer::tick() repeats until Timer::clear(), which reports whether a timer was pending
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $n = 0;
    $id = Rapier\Timer::tick(0.001, function () use (&$n, &$id) {
        $n++;
        echo "tick $n\n";
        if ($n === 3) {
            var_dump(Rapier\Timer::clear($id));
        }
    });
    $late = Rapier\Timer::after(10, fn() => print("never\n"));
    var_dump(Rapier\Timer::clear($late), Rapier\Timer::clear($late));
});
?>
--EXPECTF--
bool(true)
bool(false)
tick 1
tick 2
tick 3
bool(true)
