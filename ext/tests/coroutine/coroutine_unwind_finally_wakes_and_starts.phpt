--TEST--
Coroutine: when a deadlock or exit() unwinds the coroutines left, a finally block that wakes another of them or starts new ones frees nothing still queued (a use after free under ASan and valgrind before); the new ones never run
--EXTENSIONS--
rapier
--FILE--
<?php
/** Coroutines stuck on channels whose finally blocks wake one another and start new ones. */
function stuck_coroutines(): void
{
    $first = new Rapier\Channel(1);
    $second = new Rapier\Channel(1);
    $third = new Rapier\Channel(1);
    Rapier\go(fn() => print("a short one ran\n"));   // its record goes back to the pool, to be reused below
    Rapier\go(function () use ($first, $second) {
        try {
            $first->pop();
        } finally {
            echo "X unwinds and wakes Y\n";
            $second->push(1);
        }
    });
    Rapier\go(function () use ($second) {
        try {
            $second->pop();
            echo "Y went on\n";
        } finally {
            echo "Y unwinds\n";
        }
    });
    Rapier\go(function () use ($third) {
        try {
            $third->pop();
        } finally {
            echo "Z unwinds and starts two\n";
            Rapier\go(fn() => print("a new one ran\n"));
            Rapier\go(fn() => print("a new one ran\n"));
        }
    });
}

echo "-- a deadlock\n";
try {
    Rapier\run(function () {
        stuck_coroutines();
    });
} catch (Rapier\DeadlockException $e) {
    echo get_class($e), "\n";
}
echo "coroutines left: ", Rapier\Coroutine::count(), "\n";

echo "-- exit()\n";
register_shutdown_function(fn() => print("shutdown\n"));
Rapier\run(function () {
    stuck_coroutines();
    usleep(1000);
    exit("exit\n");
});
?>
--EXPECT--
-- a deadlock
a short one ran
X unwinds and wakes Y
Y unwinds
Z unwinds and starts two
Rapier\DeadlockException
coroutines left: 0
-- exit()
a short one ran
exit
X unwinds and wakes Y
Y unwinds
Z unwinds and starts two
shutdown
