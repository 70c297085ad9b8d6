--TEST--
10,000 coroutines each sleeping 100 ms finish together, not one after another
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip timing test: valgrind is too slow for its bounds'); ?>
--INI--
; Each live coroutine holds a 16 KiB VM stack counted by memory_limit.
memory_limit=512M
--FILE--
<?php
$start = hrtime(true);
$finished = 0;
Rapier\run(function () use (&$finished) {
    for ($i = 0; $i < 10000; $i++) {
        Rapier\go(function () use (&$finished) { Rapier\Coroutine::sleep(0.1); $finished++; });
    }
});
$elapsed = (hrtime(true) - $start) / 1e9;
echo "finished: $finished\n";
/* 10,000 x 100 ms would be 1,000 s one after another; 30 s leaves room for ASan on a busy machine. */
var_dump($elapsed >= 0.1, $elapsed < 30);
?>
--EXPECTF--
finished: 10000
bool(true)
bool(true)
