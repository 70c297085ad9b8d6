--TEST--
Rapier\parallel() with a timeout: when it passes, the callables still running are canceled and awaited (one that catches its cancel and returns is waited for, and the timeout still thrown), those not started never start, and a Rapier\TimeoutException says how many had not returned; results that all came in time are returned, also with a timeout of 0 when no callable waits
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Rapier\run(function () {
    $never = new Rapier\Channel(0);
    $started = [];
    try {
        Rapier\parallel([
            'quick' => function () use (&$started) {
                $started[] = 'quick';
                return 'in time';
            },
            'stuck' => function () use ($never, &$started) {
                $started[] = 'stuck';
                try {
                    $never->pop();
                } finally {
                    echo "'stuck' unwound\n";
                }
            },
            'slow' => function () use (&$started) {
                $started[] = 'slow';
                Coroutine::sleep(30);
            },
            'queued' => function () use (&$started) {
                $started[] = 'queued';
            },
        ], 0.05, 2);
    } catch (Rapier\TimeoutException $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
        echo "started: ", implode(' ', $started), "; coroutines left: ", Coroutine::count(), "\n";
    }

    echo "-- all in time\n";
    var_dump(Rapier\parallel([fn () => Coroutine::sleep(0.01) ?? 'slept', fn () => 'at once'], 5));

    echo "-- a timeout of 0\n";
    var_dump(Rapier\parallel(['a' => fn () => 1, 'b' => fn () => 2], 0));
    try {
        Rapier\parallel([fn () => Coroutine::sleep(1)], 0);
    } catch (Rapier\TimeoutException $e) {
        echo $e->getMessage(), "\n";
    }

    echo "-- a callable that ignores its cancel keeps parallel() waiting until it returns\n";
    try {
        Rapier\parallel([function () {
            try {
                Coroutine::sleep(30);
            } catch (Rapier\CanceledException) {
                Coroutine::sleep(0.05);
                echo "the stubborn one returns\n";
                return 'late';
            }
        }], 0.01);
    } catch (Rapier\TimeoutException $e) {
        echo "then: ", $e->getMessage(), "\n";
    }

    echo "-- an exception handler that waits, for exceptions thrown while the group stops\n";
    Coroutine::setExceptionHandler(function (Throwable $e) {
        Coroutine::sleep(0.01);
        echo "reported after a wait: ", $e->getMessage(), "\n";
    });
    $stubborn = fn (string $name) => function () use ($name) {
        try {
            Coroutine::sleep(30);
        } catch (Rapier\CanceledException) {
            throw new LogicException("$name failed its clean-up");
        }
    };
    try {
        Rapier\parallel([$stubborn('one'), $stubborn('two')], 0.01);
    } catch (Rapier\TimeoutException $e) {
        echo "then: ", $e->getMessage(), "\n";
    }
    Coroutine::setExceptionHandler(null);
});
?>
--EXPECT--
'stuck' unwound
Rapier\TimeoutException: Rapier\parallel() timed out after 0.050 seconds: 3 of 4 callables had not returned and were canceled
started: quick stuck slow; coroutines left: 1
-- all in time
array(2) {
  [0]=>
  string(5) "slept"
  [1]=>
  string(7) "at once"
}
-- a timeout of 0
array(2) {
  ["a"]=>
  int(1)
  ["b"]=>
  int(2)
}
Rapier\parallel() timed out after 0.000 seconds: 1 of 1 callables had not returned and were canceled
-- a callable that ignores its cancel keeps parallel() waiting until it returns
the stubborn one returns
then: Rapier\parallel() timed out after 0.010 seconds: 1 of 1 callables had not returned and were canceled
-- an exception handler that waits, for exceptions thrown while the group stops
then: Rapier\parallel() timed out after 0.010 seconds: 2 of 2 callables had not returned and were canceled
reported after a wait: one failed its clean-up
reported after a wait: two failed its clean-up
