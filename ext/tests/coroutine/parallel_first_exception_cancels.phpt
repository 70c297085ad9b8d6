--TEST--
Rapier\parallel(): the first exception a callable lets out is rethrown as is, once the callables still running were canceled and have ended (their finally blocks, which may wait, and defers ran first); those not started under the limit never start; one whose wait was answered but that has not run is canceled at its next wait; what another throws meanwhile is reported as uncaught, a CanceledException is not; with nothing left to wake them, a DeadlockException names parallel()
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Coroutine::setExceptionHandler(function (Throwable $e, int $id) {
    echo "reported: ", get_class($e), ": ", $e->getMessage(), "\n";
});

Rapier\run(function () {
    $boom = new RuntimeException('boom');
    $never = new Rapier\Channel(0);
    $answered = new Rapier\Channel(1);
    try {
        Rapier\parallel([
            'waits forever' => function () use ($never) {
                Coroutine::defer(fn () => print("defer of 'waits forever' ran\n"));
                try {
                    $never->pop();
                } finally {
                    Rapier\Coroutine::sleep(0.001);
                    echo "'waits forever' unwound, after a wait of its own\n";
                }
            },
            'answered' => function () use ($answered) {
                $answered->pop();
                echo "'answered' got its value and goes on to wait again\n";
                try {
                    (new Rapier\Channel(0))->pop();
                } catch (Rapier\CanceledException $e) {
                    echo "'answered' canceled at its next wait\n";
                    throw $e;
                }
            },
            'cleans up badly' => function () use ($never) {
                try {
                    $never->pop();
                } catch (Rapier\CanceledException) {
                    throw new LogicException('thrown while canceled');
                }
            },
            'fails' => function () use ($answered, $boom) {
                /*
                 * This answers 'answered' after the caller was woken: 'answered' is then
                 * ready, and has not run, when the group stops.
                 */
                Rapier\go(fn () => $answered->push('value'));
                throw $boom;
            },
        ]);
    } catch (RuntimeException $e) {
        echo "caught the same object: ", var_export($e === $boom, true), "\n";
    }
    echo "coroutines left: ", Coroutine::count(), "\n";

    echo "-- under a limit\n";
    $started = [];
    $jobs = [];
    foreach (range(1, 5) as $n) {
        $jobs[] = function () use ($n, &$started) {
            $started[] = $n;
            Coroutine::sleep(0.01);
            if ($n === 2) {
                throw new DomainException("job $n failed");
            }
            Coroutine::sleep(30);
        };
    }
    try {
        Rapier\parallel($jobs, -1, 2);
    } catch (DomainException $e) {
        echo $e->getMessage(), "; started: ", implode(' ', $started), "\n";
    }

    echo "-- two fail\n";
    try {
        Rapier\parallel([
            function () {
                throw new RuntimeException('first');
            },
            function () {
                throw new RuntimeException('second');
            },
        ]);
    } catch (RuntimeException $e) {
        echo "rethrown: ", $e->getMessage(), "\n";
    }

    echo "-- deadlock\n";
    $stuck = new Rapier\Channel(0);
    Rapier\parallel([fn () => $stuck->pop(), fn () => $stuck->pop()]);
});
?>
--EXPECTF--
'answered' got its value and goes on to wait again
'answered' canceled at its next wait
reported: LogicException: thrown while canceled
'waits forever' unwound, after a wait of its own
defer of 'waits forever' ran
caught the same object: true
coroutines left: 1
-- under a limit
job 2 failed; started: 1 2
-- two fail
reported: RuntimeException: second
rethrown: first
-- deadlock

Fatal error: Uncaught Rapier\DeadlockException: Deadlock: 3 coroutines can never be woken (%S1 waiting on Rapier\parallel()%S): nothing left in the loop to wake them: #1 in Rapier\parallel() at %s:89; #%d in Rapier\Channel->pop() at %s:89; #%d in Rapier\Channel->pop() at %s:89 in %s
%A
