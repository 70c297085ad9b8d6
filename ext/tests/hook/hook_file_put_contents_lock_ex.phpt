--TEST--
Hook: file_put_contents() with LOCK_EX in a coroutine waits for the lock in the loop: a coroutine of the same worker holding it across a wait no longer freezes the worker, a holder in another process lets the other coroutines run; it takes its turn with flock() waiters, hands the lock on when it is done, can be canceled; its answers and errors are stock PHP's; with HOOK_FLOCK off it blocks
--EXTENSIONS--
rapier
posix
--FILE--
<?php
require __DIR__ . '/flock.inc';

$file = flock_test_file('put');
$release = proc_test_flag('flock-put-release');

echo "-- a coroutine of this worker holds the lock across a wait\n";
$log = [];
Rapier\run(function () use ($file, &$log) {
    Rapier\go(function () use ($file, &$log) {
        $fp = fopen($file, 'r+');
        flock($fp, LOCK_EX);
        $log[] = 'holder locked';
        usleep(20000);
        ftruncate($fp, 0);
        fwrite($fp, 'holder;');
        $log[] = 'holder unlocks';
        flock($fp, LOCK_UN);
        usleep(1);
        $log[] = 'holder goes on';
    });
    Rapier\go(function () use ($file, &$log) {
        $log[] = 'writer waits';
        $log[] = 'writer wrote ' . json_encode(file_put_contents($file, 'writer;', FILE_APPEND | LOCK_EX));
    });
});
echo implode("\n", $log), "\n", 'file: ', file_get_contents($file), "\n";

echo "-- a lock held by another process\n";
$holder = flock_test_holder($file, $release);
Rapier\run(function () use ($file, $release) {
    Rapier\go(function () use ($release) {
        for ($i = 1; $i <= 3; $i++) {
            usleep(5000);
            echo "ticker: $i\n";
        }
        echo "ticker: lets the holder go\n";
        touch($release);
    });
    $wrote = file_put_contents($file, 'after the holder', LOCK_EX);
    echo 'wrote: ', json_encode($wrote), "\n";
});
echo 'holder exit: ', proc_close($holder), "\n", 'file: ', file_get_contents($file), "\n";
unlink($release);

echo "-- in turn with flock() waiters, each handing the lock on at once\n";
$log = [];
Rapier\run(function () use ($file, &$log) {
    file_put_contents($file, '');
    $fp = fopen($file, 'r+');
    flock($fp, LOCK_EX);
    for ($n = 1; $n <= 6; $n++) {
        Rapier\go(function () use ($file, $n, &$log) {
            if ($n % 2) {
                file_put_contents($file, "$n,", FILE_APPEND | LOCK_EX);
                $log[] = "$n appended";
            } else {
                $other = fopen($file, 'r+');
                flock($other, LOCK_EX);
                $log[] = "$n locked";
                usleep(1000);
                fseek($other, 0, SEEK_END);
                fwrite($other, "$n,");
                fclose($other);
            }
        });
    }
    usleep(30000);      // the first waiter polls at 1, 3, 7 and 15 ms, the others do not
    $log[] = 'the holder unlocks';
    flock($fp, LOCK_UN);
    usleep(1);          // 1 appends, hands on to 2 at once; 2 waits 1 ms
    $log[] = 'the holder goes on';
});
echo implode("\n", $log), "\n", 'file: ', file_get_contents($file), "\n";

echo "-- a write that did not wait tells a polling waiter at once when it is done\n";
$log = [];
Rapier\run(function () use ($file, &$log) {
    $fp = fopen($file, 'r+');
    flock($fp, LOCK_EX);
    Rapier\go(function () use ($file, &$log) {
        $other = fopen($file, 'r+');
        $log[] = 'the waiter polls';
        flock($other, LOCK_EX);
        $log[] = 'the waiter locked';
    });
    usleep(60000);      // the waiter polls at 55 ms, next at 75
    $fp = null;         // freed without fclose(): nobody is told
    $log[] = 'wrote ' . file_put_contents($file, 'w', LOCK_EX);
    usleep(1);
    $log[] = 'the writer goes on';
});
echo implode("\n", $log), "\n";

echo "-- canceled while waiting\n";
Rapier\run(function () use ($file) {
    file_put_contents($file, 'before');
    $fp = fopen($file, 'r+');
    flock($fp, LOCK_EX);
    $writer = Rapier\go(function () use ($file) {
        try {
            file_put_contents($file, 'never', LOCK_EX);
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    });
    usleep(5000);
    Rapier\Coroutine::cancel($writer);
});
echo 'file: ', file_get_contents($file), "\n";

echo "-- answers and errors, outside a run and in a coroutine\n";
function put_transcript(string $file): array
{
    $out = [];
    $say = function (string $what, callable $call) use (&$out) {
        try {
            $out[] = "$what: " . json_encode($call());
        } catch (Throwable $e) {
            $out[] = "$what: " . get_class($e) . ': ' . $e->getMessage();
        }
    };
    $dir = dirname($file);
    $say('a string', fn() => [file_put_contents($file, 'abc', LOCK_EX), file_get_contents($file)]);
    $say('appended', fn() => [file_put_contents($file, ['d', 'e'], FILE_APPEND | LOCK_EX), file_get_contents($file)]);
    $say('a stream', fn() => [file_put_contents($file, fopen('data:,xyz', 'r'), LOCK_EX), file_get_contents($file)]);
    $say('an int', fn() => [file_put_contents($file, 42, LOCK_EX), file_get_contents($file)]);
    $say('an object', fn() => [file_put_contents($file, new stdClass(), LOCK_EX), file_get_contents($file)]);
    $say('a new file', fn() => [file_put_contents("$file.new", 'n', LOCK_EX), file_get_contents("$file.new"), unlink("$file.new")]);
    $say('file://', fn() => [file_put_contents("file://$file", 'f', LOCK_EX), file_get_contents($file)]);
    $say('flags null', fn() => file_put_contents($file, 'x', null));
    $say('flags float', fn() => file_put_contents($file, 'x', 2.5));
    $say('flags string', fn() => file_put_contents($file, 'x', 'lock'));
    $say('php://memory', fn() => file_put_contents('php://memory', 'x', LOCK_EX));
    $say('php://memory, appending', fn() => file_put_contents('php://memory', 'x', FILE_APPEND | LOCK_EX));
    $say('data:', fn() => file_put_contents('data:,x', 'x', FILE_APPEND | LOCK_EX));
    $say('a directory', fn() => file_put_contents($dir, 'x', LOCK_EX));
    $say('no such directory', fn() => file_put_contents("$dir/rapier-none/x", 'x', LOCK_EX));
    $say('an empty path', fn() => file_put_contents('', 'x', LOCK_EX));
    $say('a null byte', fn() => file_put_contents("$file\0x", 'x', LOCK_EX));
    $say('not a stream', fn() => file_put_contents($file, stream_context_create(), LOCK_EX));
    $say('not a context', fn() => file_put_contents($file, 'x', LOCK_EX, fopen('php://memory', 'r')));
    $say('a context', fn() => [file_put_contents($file, 'ctx', LOCK_EX, stream_context_create()), file_get_contents($file)]);
    $say('include path', fn() => [file_put_contents($file, 'inc', FILE_USE_INCLUDE_PATH | LOCK_EX), file_get_contents($file)]);
    $say('a FIFO', function () use ($file) {
        $fifo = "$file.fifo";
        posix_mkfifo($fifo, 0600);
        $reader = proc_open(['cat', $fifo], [1 => ['pipe', 'w']], $pipes);
        $wrote = file_put_contents($fifo, 'through the FIFO', LOCK_EX);
        $read = stream_get_contents($pipes[1]);
        proc_close($reader);
        unlink($fifo);
        return [$wrote, $read];
    });
    $say('outside open_basedir', function () use ($dir) {
        ini_set('open_basedir', $dir);
        return file_put_contents('/etc/rapier-never', 'x', LOCK_EX);
    });
    return $out;
}
set_error_handler(function (int $level, string $message) {
    echo "error: $message\n";
    return true;
});
$stock = put_transcript($file);
$hooked = Rapier\run(fn() => put_transcript($file));
restore_error_handler();
echo implode("\n", $stock), "\n";
echo $hooked === $stock ? "the same in a coroutine\n" : "differs in a coroutine:\n" . implode("\n", $hooked) . "\n";

echo "-- with HOOK_FLOCK off\n";
$holder = flock_test_holder($file, $release, '-x', 0.3);
Rapier\run(function () use ($file) {
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_FLOCK);
    Rapier\go(function () {
        usleep(1000);
        echo "ticker ran\n";
    });
    $wrote = file_put_contents($file, 'blocked', LOCK_EX);
    echo 'wrote: ', json_encode($wrote), "\n";
});
Rapier\Runtime::enableHooks(Rapier\HOOK_ALL);
echo 'holder exit: ', proc_close($holder), "\n";

echo "-- exit() while a write waits for its lock\n";
register_shutdown_function(function () use ($file) {
    echo 'shutdown, file: ', file_get_contents($file), "\n";
    unlink($file);
});
Rapier\run(function () use ($file) {
    file_put_contents($file, 'kept');
    $fp = fopen($file, 'r+');
    flock($fp, LOCK_EX);
    Rapier\go(function () use ($file) {
        try {
            file_put_contents($file, 'never', LOCK_EX);
        } finally {
            echo "the writer unwinds\n";
        }
    });
    usleep(5000);
    exit("exit\n");
});
?>
--EXPECTF--
-- a coroutine of this worker holds the lock across a wait
holder locked
writer waits
holder unlocks
writer wrote 7
holder goes on
file: holder;writer;
-- a lock held by another process
ticker: 1
ticker: 2
ticker: 3
ticker: lets the holder go
wrote: 16
holder exit: 0
file: after the holder
-- in turn with flock() waiters, each handing the lock on at once
the holder unlocks
1 appended
2 locked
the holder goes on
3 appended
4 locked
5 appended
6 locked
file: 1,2,3,4,5,6,
-- a write that did not wait tells a polling waiter at once when it is done
the waiter polls
wrote 1
the waiter locked
the writer goes on
-- canceled while waiting
Rapier\CanceledException: Coroutine was canceled while waiting for a file lock (file_put_contents())
file: before
-- answers and errors, outside a run and in a coroutine
error: file_put_contents(): Passing null to parameter #3 ($flags) of type int is deprecated
error: Implicit conversion from float 2.5 to int loses precision
error: file_put_contents(): Exclusive locks may only be set for regular files
error: file_put_contents(): Exclusive locks are not supported for this stream
error: file_put_contents(): Exclusive locks are not supported for this stream
error: file_put_contents(%s): Failed to open stream: Is a directory
error: file_put_contents(%s): Failed to open stream: No such file or directory
error: file_put_contents(): open_basedir restriction in effect. File(/etc/rapier-never) is not within the allowed path(s): (%s)
error: file_put_contents(/etc/rapier-never): Failed to open stream: Operation not permitted
error: file_put_contents(): Passing null to parameter #3 ($flags) of type int is deprecated
error: Implicit conversion from float 2.5 to int loses precision
error: file_put_contents(): Exclusive locks may only be set for regular files
error: file_put_contents(): Exclusive locks are not supported for this stream
error: file_put_contents(): Exclusive locks are not supported for this stream
error: file_put_contents(%s): Failed to open stream: Is a directory
error: file_put_contents(%s): Failed to open stream: No such file or directory
error: file_put_contents(): open_basedir restriction in effect. File(/etc/rapier-never) is not within the allowed path(s): (%s)
error: file_put_contents(/etc/rapier-never): Failed to open stream: Operation not permitted
a string: [3,"abc"]
appended: [2,"abcde"]
a stream: [3,"xyz"]
an int: [2,"42"]
an object: [false,""]
a new file: [1,"n",true]
file://: [1,"f"]
flags null: 1
flags float: 1
flags string: TypeError: file_put_contents(): Argument #3 ($flags) must be of type int, string given
php://memory: false
php://memory, appending: false
data:: false
a directory: false
no such directory: false
an empty path: ValueError: Path cannot be empty
a null byte: ValueError: file_put_contents(): Argument #1 ($filename) must not contain any null bytes
not a stream: TypeError: file_put_contents(): supplied resource is not a valid stream resource
not a context: TypeError: file_put_contents(): supplied resource is not a valid Stream-Context resource
a context: [3,"ctx"]
include path: [3,"inc"]
a FIFO: [16,"through the FIFO"]
outside open_basedir: false
the same in a coroutine
-- with HOOK_FLOCK off
wrote: 7
ticker ran
holder exit: 0
-- exit() while a write waits for its lock
exit
the writer unwinds
shutdown, file: kept
