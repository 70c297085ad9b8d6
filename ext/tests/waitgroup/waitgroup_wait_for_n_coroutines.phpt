--TEST--
WaitGroup: wait() returns true once every added task called done()
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $wg = new Rapier\WaitGroup();
    $finished = 0;
    $wg->add(2);
    for ($i = 1; $i <= 5; $i++) {
        if ($i > 2) {
            $wg->add();
        }
        Rapier\go(function () use ($wg, $i, &$finished) {
            Coroutine::sleep(0.002 * (6 - $i));
            $finished++;
            $wg->done();
        });
    }
    var_dump($wg->wait());
    var_dump($finished);
    // Already zero: returns at once, as often as asked.
    var_dump($wg->wait(), $wg->wait(0));
});
?>
--EXPECT--
bool(true)
int(5)
bool(true)
bool(true)
