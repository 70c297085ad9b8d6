--TEST--
Coroutine::cancel() of a coroutine that has not started: its callable never runs, it ends with CanceledException ("canceled before it started") as if its first line had thrown; a second cancel is false; a ticker canceled at once lets the run end
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\Coroutine::setExceptionHandler(function (Throwable $e, int $id) {
    echo "coroutine ended by ", get_class($e), ": ", $e->getMessage(), "\n";
});
Rapier\run(function () {
    $never = Rapier\go(function () {
        echo "never printed\n";
    });
    echo 'cancel: ', var_export(Rapier\Coroutine::cancel($never), true), "\n";
    echo 'cancel again: ', var_export(Rapier\Coroutine::cancel($never), true), "\n";
    echo 'still there until it has run: ', var_export(Rapier\Coroutine::exists($never), true), "\n";

    // A ticker canceled before its first tick: without the cancel the run would never end.
    $ticker = Rapier\go(function () {
        while (true) {
            usleep(2000);
        }
    });
    echo 'cancel the ticker: ', var_export(Rapier\Coroutine::cancel($ticker), true), "\n";

    // Arguments given to go() are released with the coroutine.
    $arg = new class {
        public function __destruct()
        {
            echo "argument released\n";
        }
    };
    $with_arg = Rapier\go(function (object $o) {
        echo "never printed either\n";
    }, $arg);
    unset($arg);
    Rapier\Coroutine::cancel($with_arg);
    Rapier\Coroutine::sleep(0.001);
    echo 'gone after it ended: ', var_export(Rapier\Coroutine::exists($never), true), "\n";
});
echo "run ended\n";
?>
--EXPECT--
cancel: true
cancel again: false
still there until it has run: true
cancel the ticker: true
coroutine ended by Rapier\CanceledException: Coroutine was canceled before it started
coroutine ended by Rapier\CanceledException: Coroutine was canceled before it started
coroutine ended by Rapier\CanceledException: Coroutine was canceled before it started
argument released
gone after it ended: false
run ended
