--TEST--
WaitGroup: the counter reaching zero wakes every waiting coroutine, in arrival order
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $wg = new Rapier\WaitGroup();
    $wg->add(2);
    for ($i = 1; $i <= 3; $i++) {
        Rapier\go(function () use ($wg, $i) {
            var_dump($wg->wait());
            echo "waiter $i woke\n";
        });
    }
    Coroutine::sleep(0.01);
    $wg->done();
    echo "one done\n";
    Coroutine::sleep(0.01);
    $wg->done();
    echo "all done\n";
    // A new add() does not put the already woken waiters back to sleep.
    $wg->add();
    Coroutine::sleep(0.01);
    $wg->done();
});
?>
--EXPECT--
one done
all done
bool(true)
waiter 1 woke
bool(true)
waiter 2 woke
bool(true)
waiter 3 woke
