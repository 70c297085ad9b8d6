--TEST--
Rapier\parallel(): Coroutine::cancel() of the coroutine waiting in parallel() cancels its callables (nested parallel() calls too), waits for them to end, and then throws CanceledException; an exception a callable throws before the canceled caller runs again is reported, not lost; a callable canceled in the same turn as its caller (a server's stop) can still wait in its clean-up; a callable can be canceled alone, which fails the group as any exception does
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

Coroutine::setExceptionHandler(function (Throwable $e, int $id) {
    echo "reported: ", get_class($e), ": ", $e->getMessage(), "\n";
});

Rapier\run(function () {
    $ids = new Rapier\Channel(10);
    $never = new Rapier\Channel(0);
    $caller = Rapier\go(function () use ($ids, $never) {
        try {
            Rapier\parallel([
                'waits' => function () use ($ids, $never) {
                    $ids->push(Coroutine::id());
                    try {
                        $never->pop();
                    } finally {
                        echo "'waits' ended\n";
                    }
                },
                'nested' => fn () => Rapier\parallel([
                    'inner' => function () use ($ids, $never) {
                        $ids->push(Coroutine::id());
                        try {
                            $never->pop();
                        } finally {
                            echo "'inner' ended\n";
                        }
                    },
                ]),
            ]);
        } catch (Rapier\CanceledException $e) {
            echo "caller: ", $e->getMessage(), "\n";
            echo "callables left: ", count(array_filter([$ids->pop(), $ids->pop()], Coroutine::exists(...))), "\n";
        }
    });
    /* Both callables are waiting once both ids are in. */
    while ($ids->length() < 2) {
        Coroutine::sleep(0.001);
    }
    echo "cancel: ", var_export(Coroutine::cancel($caller), true), "\n";
    while (Coroutine::exists($caller)) {
        Coroutine::sleep(0.001);
    }

    echo "-- a callable fails after the caller was canceled, before the caller ran\n";
    $waiting = new Rapier\Channel(1);
    $fail = new Rapier\Channel(0);
    $caller = Rapier\go(function () use ($waiting, $fail) {
        try {
            Rapier\parallel([
                function () use ($waiting, $fail) {
                    $waiting->push(true);
                    $fail->pop();
                    throw new RuntimeException('failed meanwhile');
                },
            ]);
        } catch (Rapier\CanceledException $e) {
            echo "caller canceled\n";
        }
    });
    $waiting->pop();
    /* The callable runs (and fails) before the caller, which the cancel wakes after it. */
    $fail->push(true);
    echo "cancel: ", var_export(Coroutine::cancel($caller), true), "\n";
    while (Coroutine::exists($caller)) {
        Coroutine::sleep(0.001);
    }

    echo "-- the caller and then its callable canceled in one turn, as a server's stop does\n";
    $child = new Rapier\Channel(1);
    $caller = Rapier\go(function () use ($child) {
        try {
            Rapier\parallel([
                function () use ($child) {
                    $child->push(Coroutine::id());
                    try {
                        Coroutine::sleep(30);
                    } catch (Rapier\CanceledException $e) {
                        /* Clean-up that waits (a ROLLBACK, say) is not canceled a second time. */
                        Coroutine::sleep(0.001);
                        echo "the callable cleaned up\n";
                        throw $e;
                    }
                },
            ]);
        } catch (Rapier\CanceledException) {
            echo "caller canceled\n";
        }
    });
    $id = $child->pop();
    var_dump(Coroutine::cancel($caller), Coroutine::cancel($id));
    while (Coroutine::exists($caller)) {
        Coroutine::sleep(0.001);
    }

    echo "-- one callable canceled alone\n";
    $id = new Rapier\Channel(1);
    try {
        Rapier\parallel([
            'target' => function () use ($id) {
                $id->push(Coroutine::id());
                Coroutine::sleep(30);
            },
            'canceller' => fn () => Coroutine::cancel($id->pop()),
        ]);
    } catch (Rapier\CanceledException $e) {
        echo "rethrown: ", $e->getMessage(), "\n";
    }
});
?>
--EXPECT--
cancel: true
'waits' ended
'inner' ended
caller: Coroutine was canceled while waiting in Rapier\parallel(); the callables still running were canceled
callables left: 0
-- a callable fails after the caller was canceled, before the caller ran
cancel: true
reported: RuntimeException: failed meanwhile
caller canceled
-- the caller and then its callable canceled in one turn, as a server's stop does
bool(true)
bool(true)
the callable cleaned up
caller canceled
-- one callable canceled alone
rethrown: Coroutine was canceled while sleeping
