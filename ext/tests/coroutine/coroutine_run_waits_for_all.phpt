--TEST--
Rapier\run() drives the loop until every coroutine has finished
--EXTENSIONS--
rapier
--FILE--
<?php
$done = [];
Rapier\run(function () use (&$done) {
    for ($i = 3; $i >= 1; $i--) {
        Rapier\go(function ($n) use (&$done) { Rapier\Coroutine::sleep($n / 100); $done[] = $n; }, $i);
    }
    $done[] = 'main';
});
echo implode(",", $done), "\n";
?>
--EXPECTF--
main,1,2,3
