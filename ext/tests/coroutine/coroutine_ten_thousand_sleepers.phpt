--TEST--
10,000 coroutines each sleeping 100 ms finish together in well under a second
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip timing test: valgrind is too slow for its bounds'); ?>
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
/* 10,000 x 100 ms would be 1,000 s if they ran one after another. */
var_dump($elapsed >= 0.1, $elapsed < 0.9);
?>
--EXPECTF--
finished: 10000
bool(true)
bool(true)
