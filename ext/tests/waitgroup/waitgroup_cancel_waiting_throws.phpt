--TEST--
WaitGroup: canceling a coroutine waiting on a WaitGroup throws Rapier\CanceledException in it
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $wg = new Rapier\WaitGroup();
    $wg->add();
    $id = Rapier\go(function () use ($wg) {
        try {
            $wg->wait();
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    });
    Coroutine::sleep(0.01);
    var_dump(Coroutine::cancel($id));
    Coroutine::sleep(0.01);
    $wg->done();
    var_dump($wg->wait(0));
});
?>
--EXPECT--
bool(true)
Rapier\CanceledException: Coroutine was canceled while waiting on a WaitGroup
bool(true)
