--TEST--
Rapier\parallel() misuse: outside a coroutine and inside a Fiber of one's own it throws Rapier\Exception; a value that is not callable is a TypeError naming its key, before anything starts; a negative limit or a NaN timeout is a ValueError; callables are taken when the call starts, so changing a referenced one meanwhile changes nothing
--EXTENSIONS--
rapier
--FILE--
<?php
function attempt(callable $fn): void
{
    try {
        $fn();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

attempt(fn () => Rapier\parallel([fn () => 1]));
Rapier\run(function () {
    $ran = false;
    attempt(fn () => Rapier\parallel(['ok' => function () use (&$ran) { $ran = true; }, 'bad' => 'no_such_function']));
    attempt(fn () => Rapier\parallel([fn () => 1, 2 => 42]));
    echo "the valid one ran: ", var_export($ran, true), "\n";
    attempt(fn () => Rapier\parallel([fn () => 1], limit: -1));
    attempt(fn () => Rapier\parallel([fn () => 1], NAN));
    attempt(fn () => Rapier\parallel([fn () => 1], 1e10));
    $fiber = new Fiber(fn () => Rapier\parallel([fn () => 1]));
    attempt(fn () => $fiber->start());
    echo "callables held by reference, changed while the first runs: ";
    $first = function () use (&$second) {
        $second = fn () => 'changed';
        return 'first';
    };
    $second = fn () => 'original';
    $byRef = [&$first, &$second];
    var_dump(Rapier\parallel($byRef, limit: 1));
    echo "a negative timeout waits as long as it takes: ";
    var_dump(Rapier\parallel([fn () => Rapier\Coroutine::sleep(0.01) ?? 'done'], -5));
});
?>
--EXPECT--
Rapier\Exception: Cannot call Rapier\parallel() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
TypeError: Rapier\parallel(): Argument #1 ($callables) must contain only callables, string given at key "bad"
TypeError: Rapier\parallel(): Argument #1 ($callables) must contain only callables, int given at key 2
the valid one ran: false
ValueError: Rapier\parallel(): Argument #3 ($limit) must be between 0 (no limit) and 4294967295
ValueError: Rapier\parallel(): Argument #2 ($timeout) must not be NAN
ValueError: Rapier\parallel(): Argument #2 ($timeout) must be at most 9000000000 seconds
Rapier\Exception: Cannot call Rapier\parallel() here: it must run in a Rapier coroutine, not in a Fiber of your own or a destructor called by the garbage collector
callables held by reference, changed while the first runs: array(2) {
  [0]=>
  string(5) "first"
  [1]=>
  string(8) "original"
}
a negative timeout waits as long as it takes: array(1) {
  [0]=>
  string(4) "done"
}
