--TEST--
Coroutine::cancel() of a coroutine go() has queued but that has not started: it starts as usual and its first wait throws CanceledException at once, so its defers and finally blocks run (a WaitGroup is not left waiting); one that never waits runs to its end; a second cancel is false; a ticker canceled at once lets the run end
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\Coroutine::setExceptionHandler(function (Throwable $e, int $id) {
    echo "uncaught: ", get_class($e), ": ", $e->getMessage(), "\n";
});
Rapier\run(function () {
    $wg = new Rapier\WaitGroup();
    $wg->add();
    $worker = Rapier\go(function () use ($wg) {
        Rapier\Coroutine::defer(fn() => $wg->done());
        echo "worker: started\n";
        try {
            Rapier\Coroutine::sleep(10);
            echo "worker: slept\n";
        } catch (Rapier\CanceledException $e) {
            echo "worker: ", $e->getMessage(), "\n";
        } finally {
            echo "worker: finally\n";
        }
    });
    echo 'cancel: ', var_export(Rapier\Coroutine::cancel($worker), true), "\n";
    echo 'cancel again: ', var_export(Rapier\Coroutine::cancel($worker), true), "\n";
    $wg->wait();
    echo "the WaitGroup is done\n";

    // Its first wait only: a second one waits as usual.
    $twice = Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(10);
        } catch (Rapier\CanceledException) {
            echo "twice: first wait canceled\n";
        }
        Rapier\Coroutine::sleep(0.001);
        echo "twice: second wait slept\n";
    });
    Rapier\Coroutine::cancel($twice);

    // One that never waits runs to its end.
    $quick = Rapier\go(function () {
        echo "quick: ran to its end\n";
    });
    echo 'cancel quick: ', var_export(Rapier\Coroutine::cancel($quick), true), "\n";

    // A ticker canceled before its first tick: without the cancel the run would never end.
    $ticker = Rapier\go(function () {
        while (true) {
            usleep(2000);
        }
    });
    echo 'cancel the ticker: ', var_export(Rapier\Coroutine::cancel($ticker), true), "\n";
});
echo "run ended\n";
?>
--EXPECT--
cancel: true
cancel again: false
worker: started
worker: Coroutine was canceled while sleeping
worker: finally
the WaitGroup is done
cancel quick: true
cancel the ticker: true
twice: first wait canceled
quick: ran to its end
uncaught: Rapier\CanceledException: Coroutine was canceled while sleeping
twice: second wait slept
run ended
