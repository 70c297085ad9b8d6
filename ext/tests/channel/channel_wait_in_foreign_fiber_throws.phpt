--TEST--
Channel: waiting inside a Fiber that is not a Rapier coroutine throws instead of suspending it
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $ch = new Rapier\Channel(1);
    $fiber = new Fiber(function () use ($ch) {
        // Completes without waiting: fine anywhere.
        var_dump($ch->push('ok'));
        try {
            $ch->push('full');
        } catch (Rapier\Exception $e) {
            echo $e->getMessage(), "\n";
        }
    });
    $fiber->start();
    var_dump($fiber->isTerminated(), $ch->pop());
});
?>
--EXPECT--
bool(true)
Cannot call Rapier\Channel::push() here: it must run in a Rapier coroutine, not in a Fiber of your own or a destructor called by the garbage collector
bool(true)
string(2) "ok"
