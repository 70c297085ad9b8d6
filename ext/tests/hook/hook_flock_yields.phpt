--TEST--
Hook: a blocking flock() (or SplFileObject::flock()) suspends only its coroutine: a lock held by another process (let go only once another coroutine says so), coroutines of one process queued on one lock (served in turn, one at a time, none waiting on another's wait), shared locks held together while an exclusive one waits, an unlock or a close that hands the lock on at once; with the flag off flock() blocks
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/flock.inc';

$file = flock_test_file('yields');
$release = proc_test_flag('flock-release');

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
    $fp = fopen($file, 'r+');
    $would_block = 7;
    $locked = flock($fp, LOCK_EX, $would_block);
    echo 'locked: ', json_encode([$locked, $would_block]), "\n";
    var_dump(flock($fp, LOCK_UN));
});
echo 'holder exit: ', proc_close($holder), "\n";
unlink($release);

echo "-- SplFileObject::flock(), the same\n";
$holder = flock_test_holder($file, $release);
Rapier\run(function () use ($file, $release) {
    Rapier\go(function () use ($release) {
        usleep(5000);
        echo "ticker: lets the holder go\n";
        touch($release);
    });
    $object = new SplFileObject($file, 'r+');
    $locked = $object->flock(LOCK_SH, $would_block);
    echo 'locked: ', json_encode([$locked, $would_block]), "\n";
});
echo 'holder exit: ', proc_close($holder), "\n";
unlink($release);

echo "-- coroutines of one process queued on one lock\n";
$order = [];
$holding = 0;
$most = 0;
Rapier\run(function () use ($file, &$order, &$holding, &$most) {
    for ($n = 1; $n <= 50; $n++) {
        Rapier\go(function () use ($file, $n, &$order, &$holding, &$most) {
            $fp = fopen($file, 'r+');    // one open file description each: they conflict as processes would
            flock($fp, LOCK_EX);
            $most = max($most, ++$holding);
            $order[] = $n;
            usleep(1000);                // holds the lock across a wait
            $holding--;
            flock($fp, LOCK_UN);
            fclose($fp);
        });
    }
});
echo 'served: ', count($order), ', in turn: ', json_encode($order === range(1, 50)), ", most at once: $most\n";

echo "-- shared locks together, an exclusive one after them\n";
$log = [];
Rapier\run(function () use ($file, &$log) {
    $shared = function (string $name) use ($file, &$log) {
        $fp = fopen($file, 'r');
        flock($fp, LOCK_SH);
        $log[] = "$name shared";
        usleep(20000);
        $log[] = "$name unlocks";
        flock($fp, LOCK_UN);
    };
    Rapier\go($shared, 'a');
    Rapier\go($shared, 'b');
    Rapier\go(function () use ($file, &$log) {
        $fp = fopen($file, 'r+');
        flock($fp, LOCK_EX);
        $log[] = 'c exclusive';
        flock($fp, LOCK_UN);
    });
});
echo implode("\n", $log), "\n";

echo "-- an unlock or a close in the process hands the lock on at once, not at the next poll\n";
$releases = ['unlocks' => fn($fp) => flock($fp, LOCK_UN), 'closes without unlocking' => fn($fp) => fclose($fp)];
foreach ($releases as $how => $let_go) {
    $log = [];
    Rapier\run(function () use ($file, $how, $let_go, &$log) {
        $fp = fopen($file, 'r+');
        flock($fp, LOCK_EX);
        Rapier\go(function () use ($file, &$log) {
            $other = fopen($file, 'r+');
            $log[] = 'waits';
            $log[] = 'locked: ' . json_encode(flock($other, LOCK_EX));
        });
        usleep(40000);      // the waiter polls at 31 and 51 ms
        $log[] = "the holder $how";
        $let_go($fp);
        usleep(1);          // a waiter woken by the release runs before this ends
        $log[] = 'the holder goes on';
    });
    echo implode("\n", $log), "\n";
}

echo "-- with HOOK_FLOCK off\n";
$holder = flock_test_holder($file, $release, '-x', 0.3);
Rapier\run(function () use ($file) {
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_FLOCK);
    Rapier\go(function () {
        usleep(1000);
        echo "ticker ran\n";
    });
    $fp = fopen($file, 'r+');
    echo 'locked: ', json_encode(flock($fp, LOCK_EX)), "\n";
});
Rapier\Runtime::enableHooks(Rapier\HOOK_ALL);
echo 'holder exit: ', proc_close($holder), "\n";
unlink($file);
?>
--EXPECT--
-- a lock held by another process
ticker: 1
ticker: 2
ticker: 3
ticker: lets the holder go
locked: [true,0]
bool(true)
holder exit: 0
-- SplFileObject::flock(), the same
ticker: lets the holder go
locked: [true,0]
holder exit: 0
-- coroutines of one process queued on one lock
served: 50, in turn: true, most at once: 1
-- shared locks together, an exclusive one after them
a shared
b shared
a unlocks
b unlocks
c exclusive
-- an unlock or a close in the process hands the lock on at once, not at the next poll
waits
the holder unlocks
locked: true
the holder goes on
waits
the holder closes without unlocking
locked: true
the holder goes on
-- with HOOK_FLOCK off
locked: true
ticker ran
holder exit: 0
