--TEST--
Rapier\run() returns the main coroutine's result and passes its arguments
--EXTENSIONS--
rapier
--FILE--
<?php
var_dump(Rapier\run(fn($a, $b) => $a + $b, 40, 2));
var_dump(Rapier\run(function () { Rapier\Coroutine::sleep(0.001); return "after sleep"; }));
?>
--EXPECTF--
int(42)
string(11) "after sleep"
