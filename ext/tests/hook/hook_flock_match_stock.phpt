--TEST--
Hook: flock() and SplFileObject::flock() in a coroutine answer as stock PHP does outside one (would_block, conversions, LOCK_NB against another process, shared locks, errors, streams without locking, a typed reference); a wait can be canceled, and the next waiter then takes over; a stream closed under a waiter; exit() while coroutines wait for locks
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/flock.inc';

final class TypedBox
{
    public array $would_block = [];
}

/** What a series of flock() calls answers; the same outside a run and in a coroutine. */
function flock_transcript(string $file, string $release): array
{
    $out = [];
    $say = function (string $what, callable $call) use (&$out) {
        try {
            $out[] = "$what: " . json_encode($call());
        } catch (Throwable $e) {
            $out[] = "$what: " . get_class($e) . ': ' . $e->getMessage();
        }
    };
    $fp = fopen($file, 'r+');
    $other = fopen($file, 'r+');
    $say('exclusive', function () use ($fp) {
        $would_block = 'x';
        return [flock($fp, LOCK_EX, $would_block), $would_block];
    });
    $say('other, non-blocking', function () use ($other) {
        return [flock($other, LOCK_EX | LOCK_NB, $would_block), $would_block];
    });
    $say('to shared', fn() => flock($fp, LOCK_SH));
    $say('other, shared non-blocking', fn() => flock($other, LOCK_SH | LOCK_NB));
    $say('both unlock', fn() => [flock($fp, LOCK_UN), flock($other, LOCK_UN, $would_block), $would_block]);
    $say('unlock again', fn() => flock($fp, LOCK_UN));
    $say('numeric string', fn() => [flock($fp, '2'), flock($fp, LOCK_UN)]);
    $say('float', fn() => [flock($fp, 2.5), flock($fp, LOCK_UN)]);
    $say('extra bits', fn() => [flock($fp, LOCK_EX | 8), flock($fp, LOCK_UN)]);
    $say('zero', fn() => flock($fp, 0));
    $say('eight', fn() => flock($fp, 8));
    $say('no int', fn() => flock($fp, 'exclusive'));
    $say('a context', fn() => flock(stream_context_create(), LOCK_EX));
    $closed = fopen($file, 'r');
    fclose($closed);
    $say('closed stream', fn() => flock($closed, LOCK_EX));
    $say('php://memory', fn() => flock(fopen('php://memory', 'r+'), LOCK_EX));
    $say('php://temp', fn() => flock(fopen('php://temp', 'r+'), LOCK_SH));
    $say('typed reference', function () use ($fp) {
        $box = new TypedBox();
        return flock($fp, LOCK_EX, $box->would_block);
    });
    $say('locked after all', fn() => flock($other, LOCK_EX | LOCK_NB, $would_block) ?: ['no', $would_block]);
    flock($fp, LOCK_UN);

    $object = new SplFileObject($file, 'r+');
    $say('SplFileObject', fn() => [$object->flock(LOCK_EX, $would_block), $would_block, $object->flock(LOCK_UN)]);
    $say('SplFileObject, zero', fn() => $object->flock(0));
    $say('SplFileObject, float', fn() => [$object->flock(1.5), $object->flock(LOCK_UN)]);
    $say('SplFileObject, not initialized', fn() => (new class ('') extends SplFileObject {
        public function __construct(string $unused)
        {
        }
    })->flock(LOCK_EX));
    $say('SplTempFileObject', fn() => (new SplTempFileObject())->flock(LOCK_EX));

    $holder = flock_test_holder($file, $release);
    $say('held elsewhere, non-blocking', fn() => [flock($fp, LOCK_EX | LOCK_NB, $would_block), $would_block]);
    $say('held elsewhere, shared non-blocking', fn() => [flock($fp, LOCK_SH | LOCK_NB, $would_block), $would_block]);
    $say('held elsewhere, SplFileObject non-blocking', fn() => [$object->flock(LOCK_EX | LOCK_NB, $would_block), $would_block]);
    touch($release);
    $say('held elsewhere until released', fn() => [flock($fp, LOCK_EX, $would_block), $would_block]);
    proc_close($holder);
    unlink($release);
    flock($fp, LOCK_UN);

    $holder = flock_test_holder($file, $release, '-s');
    $say('shared elsewhere, shared', fn() => flock($fp, LOCK_SH));
    $say('shared elsewhere, exclusive non-blocking', fn() => [flock($other, LOCK_EX | LOCK_NB, $would_block), $would_block]);
    touch($release);
    proc_close($holder);
    unlink($release);
    return $out;
}

$file = flock_test_file('stock');
$release = proc_test_flag('flock-stock-release');
set_error_handler(function (int $level, string $message) {
    echo "error: $message\n";
    return true;
});
$stock = flock_transcript($file, $release);
$hooked = Rapier\run(fn() => flock_transcript($file, $release));
restore_error_handler();
echo implode("\n", $stock), "\n";
echo $hooked === $stock ? "the same in a coroutine\n" : "differs in a coroutine:\n" . implode("\n", $hooked) . "\n";

echo "-- cancels\n";
foreach (['the poller', 'a waiter behind it'] as $canceled) {
    $holder = flock_test_holder($file, $release);
    Rapier\run(function () use ($file, $release, $canceled) {
        $wait = function (string $name) use ($file) {
            $fp = fopen($file, 'r+');
            try {
                echo "$name locked: " . json_encode(flock($fp, LOCK_EX)) . "\n";
            } catch (Rapier\CanceledException $e) {
                echo "$name: ", $e->getMessage(), "\n";
            }
        };
        $first = Rapier\go($wait, 'first');
        $second = Rapier\go($wait, 'second');
        usleep(10000);
        Rapier\Coroutine::cancel($canceled === 'the poller' ? $first : $second);
        usleep(10000);
        touch($release);
    });
    proc_close($holder);
    unlink($release);
}

echo "-- the stream closed under a waiter\n";
$holder = flock_test_holder($file, $release);
Rapier\run(function () use ($file, $release) {
    $fp = fopen($file, 'r+');
    Rapier\go(function () use ($fp, $release) {
        usleep(10000);
        fclose($fp);
        touch($release);
    });
    var_dump(flock($fp, LOCK_EX));
});
proc_close($holder);
unlink($release);

echo "-- exit() while coroutines wait for locks\n";
register_shutdown_function(function () use ($file) {
    echo "shutdown\n";
    unlink($file);
});
Rapier\run(function () use ($file) {
    Rapier\go(function () use ($file) {
        $fp = fopen($file, 'r+');
        flock($fp, LOCK_EX);
        try {
            usleep(1000000);
        } finally {
            echo "the holder unwinds and unlocks\n";
            flock($fp, LOCK_UN);     // wakes a waiter that is being unwound too
        }
    });
    for ($i = 0; $i < 3; $i++) {
        Rapier\go(function () use ($file) {
            try {
                flock(fopen($file, 'r+'), LOCK_EX);
                echo "locked?\n";
            } finally {
                echo "a waiter unwinds\n";
            }
        });
    }
    usleep(10000);
    exit("exit\n");
});
?>
--EXPECTF--
error: Implicit conversion from float 2.5 to int loses precision
error: Implicit conversion from float 1.5 to int loses precision
error: Implicit conversion from float 2.5 to int loses precision
error: Implicit conversion from float 1.5 to int loses precision
exclusive: [true,0]
other, non-blocking: [false,1]
to shared: true
other, shared non-blocking: true
both unlock: [true,true,0]
unlock again: true
numeric string: [true,true]
float: [true,true]
extra bits: [true,true]
zero: ValueError: flock(): Argument #2 ($operation) must be one of LOCK_SH, LOCK_EX, or LOCK_UN
eight: ValueError: flock(): Argument #2 ($operation) must be one of LOCK_SH, LOCK_EX, or LOCK_UN
no int: TypeError: flock(): Argument #2 ($operation) must be of type int, string given
a context: TypeError: flock(): supplied resource is not a valid stream resource
closed stream: TypeError: flock(): supplied resource is not a valid stream resource
php://memory: false
php://temp: false
typed reference: TypeError: Cannot assign int to reference held by property TypedBox::$would_block of type array
locked after all: ["no",1]
SplFileObject: [true,0,true]
SplFileObject, zero: ValueError: SplFileObject::flock(): Argument #1 ($operation) must be one of LOCK_SH, LOCK_EX, or LOCK_UN
SplFileObject, float: [true,true]
SplFileObject, not initialized: Error: The parent constructor was not called: the object is in an invalid state
SplTempFileObject: false
held elsewhere, non-blocking: [false,1]
held elsewhere, shared non-blocking: [false,1]
held elsewhere, SplFileObject non-blocking: [false,1]
held elsewhere until released: [true,0]
shared elsewhere, shared: true
shared elsewhere, exclusive non-blocking: [false,1]
the same in a coroutine
-- cancels
first: Coroutine was canceled while waiting for a file lock (flock())
second locked: true
second: Coroutine was canceled while waiting for a file lock (flock())
first locked: true
-- the stream closed under a waiter

Warning: flock(): The stream was closed while this coroutine waited for its lock in %s on line %d
bool(false)
-- exit() while coroutines wait for locks
exit
the holder unwinds and unlocks
a waiter unwinds
a waiter unwinds
a waiter unwinds
shutdown
