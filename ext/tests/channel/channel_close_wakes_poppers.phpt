--TEST--
Channel: close() wakes every waiting popper with false
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $ch = new Rapier\Channel(2);
    for ($i = 1; $i <= 3; $i++) {
        Rapier\go(function () use ($ch, $i) {
            $v = $ch->pop();
            echo "popper $i: ", var_export($v, true), "\n";
        });
    }
    Coroutine::sleep(0.01);
    echo "closing\n";
    $ch->close();
    var_dump($ch->isClosed());
    Coroutine::sleep(0.01);
    echo "done\n";
});
?>
--EXPECT--
closing
bool(true)
popper 1: false
popper 2: false
popper 3: false
done
