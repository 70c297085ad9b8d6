--TEST--
sleep(), usleep() and time_nanosleep() yield to the loop inside coroutines
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip timing test: valgrind is too slow for its bounds'); ?>
--FILE--
<?php
$order = [];
$start = hrtime(true);
Rapier\run(function () use (&$order) {
    Rapier\go(function () use (&$order) { usleep(30000); $order[] = 'usleep'; });
    Rapier\go(function () use (&$order) { var_dump(time_nanosleep(0, 20000000)); $order[] = 'nanosleep'; });
    Rapier\go(function () use (&$order) { var_dump(sleep(0)); $order[] = 'sleep'; });
    Rapier\go(function () use (&$order) { $order[] = 'no sleep'; });
});
$elapsed = (hrtime(true) - $start) / 1e6;
echo implode(",", $order), "\n";
/* Blocking, the sleeps would add up to 50 ms; overlapping, they take about 30. */
var_dump($elapsed < 48);
?>
--EXPECTF--
int(0)
bool(true)
no sleep,sleep,nanosleep,usleep
bool(true)
