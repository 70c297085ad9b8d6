--TEST--
Rapier\trap_exit(): exit() inside ends only the callable, as a Rapier\ExitException with its status
--EXTENSIONS--
rapier
--FILE--
<?php
function trapped(callable $fn, mixed ...$args): void
{
    try {
        var_dump(Rapier\trap_exit($fn, ...$args));
    } catch (Rapier\ExitException $e) {
        echo get_class($e), ': status ', $e->getStatus(), ', code ', $e->getCode(), ', ', $e->getMessage(), "\n";
    }
}

echo "-- a return, with arguments\n";
trapped(fn (int $a, int $b) => $a + $b, 2, 3);

echo "-- exit(3): finally blocks between the exit and the trap are skipped, as exit() skips them\n";
try {
    trapped(function () {
        try {
            echo "inside\n";
            exit(3);
        } finally {
            echo "not printed\n";
        }
    });
} finally {
    echo "the caller's finally runs\n";
}

echo "-- die(\"message\"): printed, status 0\n";
trapped(function () {
    die("goodbye\n");
});

echo "-- other exceptions pass unchanged\n";
try {
    Rapier\trap_exit(fn () => throw new LogicException('not an exit'));
} catch (LogicException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

echo "-- nested: the innermost trap takes the exit\n";
trapped(function () {
    trapped(fn () => exit(4));
    return 'outer went on';
});

echo "-- deep in calls, and from a destructor\n";
function deep(int $n): void { $n === 0 ? exit(5) : deep($n - 1); }
trapped('deep', 50);
trapped(function () {
    $o = new class { public function __destruct() { exit(6); } };
    unset($o);
    echo "not printed\n";
});

echo "-- in a coroutine, across a suspension\n";
Rapier\run(function () {
    Rapier\go(function () {
        trapped(function () {
            Rapier\Coroutine::sleep(0.001);
            exit(7);
        });
        echo "the coroutine goes on\n";
    });
});

echo "-- a Fiber destroyed while suspended inside the trap unwinds through it\n";
$fiber = new Fiber(function () {
    trapped(function () {
        try {
            Fiber::suspend();
        } finally {
            echo "finally of the destroyed fiber\n";
        }
    });
    echo "not printed\n";
});
$fiber->start();
unset($fiber);

echo "-- the script's exit status is not the trapped one; an exit outside a trap still ends the script\n";
preg_match('~\s(/\S*/rapier\.so)$~m', file_get_contents('/proc/self/maps'), $so);
$code = 'try { Rapier\trap_exit(fn () => exit(9)); } catch (Rapier\ExitException) { echo "trapped;"; }';
foreach ([$code, $code . ' exit(2);'] as $script) {
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . $so[1], '-r', $script],
        [1 => ['pipe', 'w']], $pipes);
    echo stream_get_contents($pipes[1]), ' exit code ', proc_close($p), "\n";
}

echo "-- arguments\n";
try {
    Rapier\trap_exit('no_such_function');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
echo "end\n";
?>
--EXPECT--
-- a return, with arguments
int(5)
-- exit(3): finally blocks between the exit and the trap are skipped, as exit() skips them
inside
Rapier\ExitException: status 3, code 3, exit() was called with status 3: it ended the code Rapier\trap_exit() ran
the caller's finally runs
-- die("message"): printed, status 0
goodbye
Rapier\ExitException: status 0, code 0, exit() was called with status 0: it ended the code Rapier\trap_exit() ran
-- other exceptions pass unchanged
LogicException: not an exit
-- nested: the innermost trap takes the exit
Rapier\ExitException: status 4, code 4, exit() was called with status 4: it ended the code Rapier\trap_exit() ran
string(13) "outer went on"
-- deep in calls, and from a destructor
Rapier\ExitException: status 5, code 5, exit() was called with status 5: it ended the code Rapier\trap_exit() ran
Rapier\ExitException: status 6, code 6, exit() was called with status 6: it ended the code Rapier\trap_exit() ran
-- in a coroutine, across a suspension
Rapier\ExitException: status 7, code 7, exit() was called with status 7: it ended the code Rapier\trap_exit() ran
the coroutine goes on
-- a Fiber destroyed while suspended inside the trap unwinds through it
finally of the destroyed fiber
-- the script's exit status is not the trapped one; an exit outside a trap still ends the script
trapped; exit code 0
trapped; exit code 2
-- arguments
Rapier\trap_exit(): Argument #1 ($fn) must be a valid callback, function "no_such_function" not found or invalid function name
end
