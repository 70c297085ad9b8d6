--TEST--
Sleeps shorter than a millisecond are not rounded up to whole milliseconds
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip timing test: valgrind is too slow for its bounds'); ?>
--FILE--
<?php
Rapier\run(function () {
    $start = hrtime(true);
    for ($i = 0; $i < 200; $i++) {
        Rapier\Coroutine::sleep(0.0001);
    }
    $perSleep = (hrtime(true) - $start) / 200 / 1000;
    /* 200 x 0.1 ms; rounding each up to 1 ms (epoll_wait) would take >= 1000 us each. */
    var_dump($perSleep >= 100, $perSleep < 900);
});
?>
--EXPECTF--
bool(true)
bool(true)
