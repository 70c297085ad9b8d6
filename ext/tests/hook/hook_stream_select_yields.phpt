--TEST--
Hook: stream_select() inside a coroutine suspends only that coroutine; its results, timeouts, buffered data and errors are stock PHP's; HOOK_STREAM_SELECT off blocks
--EXTENSIONS--
rapier
--FILE--
<?php
/*
 * Runs $fn beside a coroutine ticking every 10 ms, which calls $at_ten (if
 * any) after its tenth tick; returns how many ticks it saw.
 */
function beside_ticker(callable $fn, ?callable $at_ten = null): int
{
    $ticks = 0;
    $done = false;
    Rapier\go(function () use (&$ticks, &$done, $at_ten) {
        while (!$done) {
            Rapier\Coroutine::sleep(0.01);
            if (++$ticks === 10 && $at_ten) {
                $at_ten();
            }
        }
    });
    $fn();
    $done = true;
    return $ticks;
}

function pair(): array
{
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $c = stream_socket_client('tcp://' . stream_socket_get_name($srv, false));
    return [$c, stream_socket_accept($srv)];
}

/* PHP's own errors, the same inside and outside a coroutine. */
function misuse(): void
{
    $none = null;
    $empty = [];
    $bad = ['x' => 'not a stream'];
    [$c] = pair();
    $ok = [$c];
    $calls = [
        fn () => stream_select($empty, $none, $none, 1),
        fn () => stream_select($bad, $none, $none, 1),
        fn () => stream_select($ok, $none, $none, -1),
    ];
    foreach ($calls as $call) {
        try {
            $call();
        } catch (Throwable $e) {
            for ($line = []; $e; $e = $e->getPrevious()) {
                $line[] = get_class($e) . ': ' . $e->getMessage();
            }
            echo implode(' <- ', $line), "\n";
        }
    }
}

echo "-- outside\n";
misuse();

Rapier\run(function () {
    /* The peer writes after ten ticks: select() returns only if the ticker ran while it waited. */
    echo "-- readable later, keys kept\n";
    [$c, $peer] = pair();
    $ticks = beside_ticker(function () use ($c) {
        $r = ['first' => $c];
        $w = $e = null;
        var_dump(stream_select($r, $w, $e, 30), array_keys($r), fgets($c));
    }, fn () => fwrite($peer, "late\n"));
    echo $ticks >= 10 ? "the loop ran meanwhile\n" : "blocked: $ticks ticks\n";

    echo "-- null seconds with 0 microseconds waits as null does\n";
    $ticks = beside_ticker(function () use ($c) {
        $r = [$c];
        $w = $e = null;
        var_dump(stream_select($r, $w, $e, null, 0), fgets($c));
    }, fn () => fwrite($peer, "later\n"));
    echo $ticks >= 10 ? "the loop ran meanwhile\n" : "blocked: $ticks ticks\n";

    /*
     * A timer due before the timeout, armed before select() started: it runs
     * first if select() waits its 0.3 s, and at all only if the loop runs meanwhile.
     */
    echo "-- timeout\n";
    $fired = false;
    Rapier\Timer::after(0.29, function () use (&$fired) {
        $fired = true;
    });
    $r = [$c];
    $w = $e = null;
    var_dump(stream_select($r, $w, $e, 0, 300000), $r);
    echo $fired ? "waited the timeout while the loop ran\n" : "returned before 0.29 s, or blocked the loop\n";

    echo "-- buffered data is ready at once\n";
    fwrite($peer, "one\ntwo\n");
    Rapier\Coroutine::sleep(0.05);
    echo fgets($c);              // "two\n" now waits in PHP's buffer, not in the socket
    $r = [$c];
    $w = $e = null;
    var_dump(stream_select($r, $w, $e, 5), fgets($c));

    echo "-- one stream in both arrays\n";
    $r = [$c];
    $w = [$c];
    $e = null;
    var_dump(stream_select($r, $w, $e, 5), count($r), count($w));

    echo "-- canceled while waiting\n";
    $waiter = Rapier\go(function () use ($c) {
        $r = [$c];
        $w = $e = null;
        try {
            stream_select($r, $w, $e, null);
        } catch (Rapier\CanceledException $e) {
            echo $e->getMessage(), "\n";
        }
    });
    Rapier\Coroutine::sleep(0.05);
    Rapier\Coroutine::cancel($waiter);
    Rapier\Coroutine::sleep(0.01);

    echo "-- misuse\n";
    misuse();

    echo "-- HOOK_STREAM_SELECT off\n";
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_STREAM_SELECT);
    $ticks = beside_ticker(function () use ($c) {
        $r = [$c];
        $w = $e = null;
        var_dump(stream_select($r, $w, $e, 0, 200000));
    });
    echo $ticks === 0 ? "blocked the loop, as stock PHP\n" : "ticked $ticks times\n";
});
?>
--EXPECT--
-- outside
ValueError: No stream arrays were passed
ValueError: No stream arrays were passed <- TypeError: stream_select(): supplied argument is not a valid stream resource
ValueError: stream_select(): Argument #4 ($seconds) must be greater than or equal to 0
-- readable later, keys kept
int(1)
array(1) {
  [0]=>
  string(5) "first"
}
string(5) "late
"
the loop ran meanwhile
-- null seconds with 0 microseconds waits as null does
int(1)
string(6) "later
"
the loop ran meanwhile
-- timeout
int(0)
array(0) {
}
waited the timeout while the loop ran
-- buffered data is ready at once
one
int(1)
string(4) "two
"
-- one stream in both arrays
int(1)
int(0)
int(1)
-- canceled while waiting
Coroutine was canceled while waiting in stream_select()
-- misuse
ValueError: No stream arrays were passed
ValueError: No stream arrays were passed <- TypeError: stream_select(): supplied argument is not a valid stream resource
ValueError: stream_select(): Argument #4 ($seconds) must be greater than or equal to 0
-- HOOK_STREAM_SELECT off
int(0)
blocked the loop, as stock PHP
