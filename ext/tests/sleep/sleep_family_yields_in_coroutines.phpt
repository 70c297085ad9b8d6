--TEST--
sleep(), usleep() and time_nanosleep() yield to the loop inside coroutines
--EXTENSIONS--
rapier
--FILE--
<?php
/*
 * Each sleeper notes its start (+) and its end (-). Blocking, each would
 * end before the next one started; yielding, all start before any ends, so
 * the sleeps overlap, and they end in order of their deadlines, not in the
 * order they started (the longest first, 0.2 s apart from the next).
 */
$order = [];
Rapier\run(function () use (&$order) {
    Rapier\go(function () use (&$order) {
        $order[] = '+usleep';
        usleep(300000);
        $order[] = '-usleep';
    });
    Rapier\go(function () use (&$order) {
        $order[] = '+nanosleep';
        var_dump(time_nanosleep(0, 100000000));
        $order[] = '-nanosleep';
    });
    Rapier\go(function () use (&$order) {
        $order[] = '+sleep';
        var_dump(sleep(0));
        $order[] = '-sleep';
    });
    Rapier\go(function () use (&$order) {
        $order[] = 'no sleep';
    });
});
echo implode(",", $order), "\n";
?>
--EXPECT--
int(0)
bool(true)
+usleep,+nanosleep,+sleep,no sleep,-sleep,-nanosleep,-usleep
