--TEST--
Channel: waiting poppers and pushers are served in arrival order
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $ch = new Rapier\Channel();
    foreach (['p1', 'p2', 'p3'] as $name) {
        Rapier\go(function () use ($ch, $name) {
            $v = $ch->pop();
            echo "$name got $v\n";
        });
        Coroutine::sleep(0.001);
    }
    foreach (['x', 'y', 'z'] as $v) {
        $ch->push($v);
    }
    Coroutine::sleep(0.01);

    $buffered = new Rapier\Channel(1);
    $buffered->push('first');
    foreach (['s1', 's2', 's3'] as $name) {
        Rapier\go(function () use ($buffered, $name) {
            $buffered->push($name);
        });
        Coroutine::sleep(0.001);
    }
    for ($i = 0; $i < 4; $i++) {
        $v = $buffered->pop();
        echo "popped $v\n";
    }
});
?>
--EXPECT--
p1 got x
p2 got y
p3 got z
popped first
popped s1
popped s2
popped s3
