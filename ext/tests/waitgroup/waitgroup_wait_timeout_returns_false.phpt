--TEST--
WaitGroup: wait() returns false when the timeout passes first, and the group stays usable
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $wg = new Rapier\WaitGroup();
    $wg->add();
    Rapier\go(function () use ($wg) {
        Coroutine::sleep(0.2);
        $wg->done();
    });
    $start = hrtime(true);
    var_dump($wg->wait(0.05));
    var_dump((hrtime(true) - $start) / 1e9 >= 0.049);
    var_dump($wg->wait(0));
    var_dump($wg->wait());
});
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
bool(true)
