--TEST--
Channel: with capacity 0 a push waits until a popper takes the value
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Channel;
use Rapier\Coroutine;

Rapier\run(function () {
    $ch = new Channel();
    Rapier\go(function () use ($ch) {
        echo "push a\n";
        var_dump($ch->push('a'));
        echo "pushed a\n";
        var_dump($ch->push('b'));
        echo "pushed b\n";
    });
    Coroutine::sleep(0.01);
    echo "popper starts, length ", $ch->length(), "\n";
    echo "pop ", $ch->pop(), "\n";
    Coroutine::sleep(0.01);
    echo "pop ", $ch->pop(), "\n";
});
?>
--EXPECT--
push a
popper starts, length 0
pop a
bool(true)
pushed a
pop b
bool(true)
pushed b
