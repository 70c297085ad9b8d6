--TEST--
Channel: canceling a coroutine waiting on a channel throws Rapier\CanceledException in it
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $empty = new Rapier\Channel();
    $full = new Rapier\Channel(1);
    $full->push('buffered');
    $popper = Rapier\go(function () use ($empty) {
        try {
            $empty->pop();
        } catch (Rapier\CanceledException $e) {
            echo "popper: ", $e->getMessage(), "\n";
        }
    });
    $pusher = Rapier\go(function () use ($full) {
        try {
            $full->push('never delivered', 10);
        } catch (Rapier\CanceledException $e) {
            echo "pusher: ", $e->getMessage(), "\n";
        }
    });
    Coroutine::sleep(0.01);
    var_dump(Coroutine::cancel($popper), Coroutine::cancel($pusher));
    Coroutine::sleep(0.01);
    // The canceled waiters left the queues: a push is buffered, the pusher's value never arrives.
    var_dump($empty->push('kept', 0), $empty->length());
    var_dump($full->pop(0), $full->pop(0));
});
?>
--EXPECT--
bool(true)
bool(true)
popper: Coroutine was canceled while waiting on a channel
pusher: Coroutine was canceled while waiting on a channel
bool(false)
int(0)
string(8) "buffered"
bool(false)
