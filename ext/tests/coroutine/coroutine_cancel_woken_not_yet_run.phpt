--TEST--
Coroutine::cancel() of a coroutine woken but not yet run: a wait its timeout ended still throws CanceledException; a wait answered with a value keeps it; a coroutine reusing a canceled one's record starts
--EXTENSIONS--
rapier
--FILE--
<?php
/**
 * Starts $canceler and $waiter, lets both begin their timed waits (the canceler's
 * shorter), then keeps the CPU without yielding until both timeouts have passed:
 * the next loop pass wakes both, the canceler first, so it runs while the waiter
 * is ready but still inside its wait.
 */
function race(callable $canceler, callable $waiter): void
{
    $started = new Rapier\Channel(2);
    $waiter_id = null;
    Rapier\go(function () use ($started, $canceler, &$waiter_id) {
        $started->push(true);
        Rapier\Coroutine::sleep(0.001);
        $canceler($waiter_id);
    });
    $waiter_id = Rapier\go(function () use ($started, $waiter) {
        $started->push(true);
        $waiter();
    });
    $started->pop();
    $started->pop();
    for ($end = hrtime(true) + 20_000_000; hrtime(true) < $end;);
    Rapier\Coroutine::sleep(0.01);
}

Rapier\run(function () {
    race(function (int $sleeper) {
        echo 'cancel of a sleeper its timer woke: ', var_export(Rapier\Coroutine::cancel($sleeper), true), "\n";
    }, function () {
        try {
            usleep(2000);
            echo "sleeper: slept\n";
        } catch (Rapier\CanceledException $e) {
            echo 'sleeper: ', $e->getMessage(), "\n";
        }
    });

    $ch = new Rapier\Channel();
    race(function (int $popper) {
        echo 'cancel of a pop its timeout ended: ', var_export(Rapier\Coroutine::cancel($popper), true), "\n";
    }, function () use ($ch) {
        try {
            var_dump($ch->pop(0.002));
        } catch (Rapier\CanceledException $e) {
            echo 'popper: ', get_class($e), "\n";
        }
    });

    // A pop answered with a value (the receiver waits; the push hands the value over and
    // goes on): the value is not lost to a cancel.
    $receiver = Rapier\go(function () use ($ch) {
        $value = $ch->pop();
        echo "received: $value\n";
    });
    Rapier\Coroutine::sleep(0.001);
    $ch->push('the value');
    echo 'cancel of a receiver given its value: ', var_export(Rapier\Coroutine::cancel($receiver), true), "\n";
    Rapier\Coroutine::sleep(0.001);

    // A coroutine reusing the record of one canceled in its wait starts as any other.
    $canceled = Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(10);
        } catch (Rapier\CanceledException) {
        }
    });
    Rapier\Coroutine::sleep(0.001);
    Rapier\Coroutine::cancel($canceled);
    Rapier\Coroutine::sleep(0.001);
    var_dump(Rapier\Coroutine::exists($canceled));
    Rapier\go(function () {
        echo "fresh: started\n";
        Rapier\Coroutine::sleep(0.001);
        echo "fresh: slept\n";
    });
});
?>
--EXPECT--
cancel of a sleeper its timer woke: true
sleeper: Coroutine was canceled while sleeping
cancel of a pop its timeout ended: true
popper: Rapier\CanceledException
cancel of a receiver given its value: false
received: the value
bool(false)
fresh: started
fresh: slept
