--TEST--
Fibers pooled for a burst of coroutines are released again once the burst is over
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_get_usage() needs Zend\'s allocator, which valgrind and make asan turn off'); ?>
--INI--
memory_limit=512M
--FILE--
<?php
Rapier\run(function () {
    $before = memory_get_usage();
    $wg = new Rapier\WaitGroup();
    for ($i = 0; $i < 2000; $i++) {
        $wg->add();
        Rapier\go(function () use ($wg) { Rapier\Coroutine::sleep(0.01); $wg->done(); });
    }
    $wg->wait();
    Rapier\Coroutine::sleep(0);
    $afterBurst = memory_get_usage();
    /* 2,000 idle fibers hold a 16 KiB VM stack each. */
    var_dump($afterBurst - $before > 2000 * 16384 / 2);
    /* Each second half of the fibers idle for the whole second are freed, down to 64. */
    Rapier\Coroutine::sleep(5.2);
    $idle = memory_get_usage();
    var_dump($idle - $before < ($afterBurst - $before) / 4);
});
?>
--EXPECT--
bool(true)
bool(true)
