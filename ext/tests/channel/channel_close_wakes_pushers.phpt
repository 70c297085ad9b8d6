--TEST--
Channel: close() wakes every waiting pusher with false; their values are not delivered
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $ch = new Rapier\Channel(1);
    $ch->push('buffered');
    for ($i = 1; $i <= 3; $i++) {
        Rapier\go(function () use ($ch, $i) {
            $ok = $ch->push("from $i");
            echo "pusher $i: ", var_export($ok, true), "\n";
        });
    }
    Coroutine::sleep(0.01);
    $ch->close();
    Coroutine::sleep(0.01);
    var_dump($ch->pop(), $ch->pop());
});
?>
--EXPECT--
pusher 1: false
pusher 2: false
pusher 3: false
string(8) "buffered"
bool(false)
