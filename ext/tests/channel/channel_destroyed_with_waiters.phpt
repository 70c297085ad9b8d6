--TEST--
Channel: waiters keep a channel alive after its owner drops it; it is freed when they finish
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $ch = new Rapier\Channel();
    $ref = WeakReference::create($ch);
    for ($i = 1; $i <= 2; $i++) {
        Rapier\go(function (Rapier\Channel $c) use ($i) {
            $r = $c->pop(0.02 * $i);
            echo "popper $i: ", var_export($r, true), "\n";
        }, $ch);
    }
    unset($ch);
    Coroutine::sleep(0.001);
    var_dump($ref->get() instanceof Rapier\Channel);
    Coroutine::sleep(0.1);
    var_dump($ref->get());
});
?>
--EXPECT--
bool(true)
popper 1: false
popper 2: false
NULL
