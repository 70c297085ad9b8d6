--TEST--
Coroutine::backtrace(): the stack of a waiting coroutine (sleep, a channel, hooked I/O) from the call it waits in down to its callable, with debug_backtrace()'s options and limit; the running coroutine's own, also from a Fiber of its own; empty before it started; the coroutines go on unharmed; misuse throws
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

function frames(array $trace): string
{
    return implode(' <- ', array_map(
        fn (array $f) => ($f['class'] ?? '') . ($f['type'] ?? '') . $f['function'] . (isset($f['line']) ? ':' . $f['line'] : ''),
        $trace
    ));
}

function sleeps(float $seconds): string
{
    Coroutine::sleep($seconds);
    return 'slept';
}

final class Inbox
{
    public function take(Rapier\Channel $channel): mixed
    {
        return $channel->pop();
    }
}

Rapier\run(function () {
    $channel = new Rapier\Channel();
    [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    $sleeper = Rapier\go(fn () => sleeps(0.05));
    $taker = Rapier\go(function () use ($channel) {
        return (new Inbox())->take($channel);
    });
    $reader = Rapier\go(function () use ($a) {
        $line = fgets($a);
        echo "reader got: $line";
        throw new LogicException('thrown after its backtrace was taken');
    });
    $queued = Rapier\go(fn () => 'never waited');
    echo "queued, not started: ", var_export(Coroutine::backtrace($queued), true), "\n";
    Coroutine::sleep(0.01);

    echo "sleeper: ", frames(Coroutine::backtrace($sleeper)), "\n";
    echo "taker: ", frames(Coroutine::backtrace($taker)), "\n";
    echo "reader: ", frames(Coroutine::backtrace($reader)), "\n";

    $full = Coroutine::backtrace($taker);
    echo "with the object: ", get_class($full[1]['object']), ", args: ", get_class($full[1]['args'][0]), "\n";
    $bare = Coroutine::backtrace($taker, DEBUG_BACKTRACE_IGNORE_ARGS);
    echo "ignoring args: ", var_export(isset($bare[1]['object']) || isset($bare[1]['args']), true), "\n";
    echo "limit 1: ", frames(Coroutine::backtrace($taker, 0, 1)), "\n";

    echo "running: ", frames(Coroutine::backtrace()), "\n";
    $me = Coroutine::id();
    $fiber = new Fiber(function () use ($me) {
        echo "from a Fiber of its own, by id: ", frames(Coroutine::backtrace($me)), "\n";
    });
    $fiber->start();

    /* Each goes on as if nothing had looked. */
    $channel->push('a value');
    fwrite($b, "a line\n");
    Coroutine::setExceptionHandler(function (Throwable $e) {
        echo "uncaught: ", $e->getMessage(), " at line ", $e->getLine(), ", trace: ", frames(array_slice($e->getTrace(), 0, 4)), "\n";
    });
    Coroutine::sleep(0.1);
    echo "coroutines left: ", Coroutine::count(), "\n";

    foreach ([fn () => Coroutine::backtrace($sleeper), fn () => Coroutine::backtrace(null, 0, -1)] as $misuse) {
        try {
            $misuse();
        } catch (Throwable $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
});
try {
    Coroutine::backtrace();
} catch (Rapier\Exception $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
queued, not started: array (
)
sleeper: Rapier\Coroutine::sleep:14 <- sleeps:29 <- {closure}
taker: Rapier\Channel->pop:22 <- Inbox->take:31 <- {closure}
reader: fgets:34 <- {closure}
with the object: Inbox, args: Rapier\Channel
ignoring args: false
limit 1: Rapier\Channel->pop:22
running: {closure}
from a Fiber of its own, by id: {closure} <- Fiber->start:57 <- {closure}
reader got: a line
uncaught: thrown after its backtrace was taken at line 36, trace: {closure} <- Rapier\Coroutine::fiberMain <- Fiber->resume <- Rapier\run:26
coroutines left: 1
Rapier\Exception: Cannot get the backtrace of coroutine #2: no such coroutine is alive
ValueError: Rapier\Coroutine::backtrace(): Argument #3 ($limit) must be between 0 (no limit) and 2147483647
Cannot call Rapier\Coroutine::backtrace() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
