--TEST--
Sleeps shorter than a millisecond are not rounded to whole milliseconds
--EXTENSIONS--
rapier
--FILE--
<?php
/* Sleeps of 0.9, 0.5 and 0.1 ms started in that order; the order they ended in. */
function race(): array
{
    $ended = [];
    $wg = new Rapier\WaitGroup();
    foreach ([0.9, 0.5, 0.1] as $ms) {
        $wg->add();
        Rapier\go(function () use ($ms, &$ended, $wg) {
            Rapier\Coroutine::sleep($ms / 1000);
            $ended[] = $ms;
            $wg->done();
        });
    }
    $wg->wait();
    return $ended;
}

Rapier\run(function () {
    /* Never early: rounded down, a 0.1 ms sleep would not sleep at all. */
    $shortest = PHP_INT_MAX;
    for ($i = 0; $i < 200; $i++) {
        $start = hrtime(true);
        Rapier\Coroutine::sleep(0.0001);
        $shortest = min($shortest, hrtime(true) - $start);
    }
    var_dump($shortest >= 100000);

    /*
     * Rounded up to 1 ms, the three would be due in the order they started;
     * precise, they end shortest first. Only a pause of 0.4 ms between two
     * starts can mix them up too, so the first of up to 100 races counts.
     */
    for ($i = 0; $i < 100 && ($ended = race()) !== [0.1, 0.5, 0.9]; $i++) {
    }
    echo "ended: ", implode(' ', $ended), " ms\n";
});
?>
--EXPECT--
bool(true)
ended: 0.1 0.5 0.9 ms
