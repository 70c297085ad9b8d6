--TEST--
Signals: what a handler that runs while every coroutine waits throws ends the run and is thrown by Rapier\run(), and an exit() there ends the script at once; the waiting coroutines are unwound either way
--EXTENSIONS--
rapier
pcntl
--SKIPIF--
<?php if (!is_readable('/proc/self/wchan')) die('skip needs /proc/PID/wchan'); ?>
--FILE--
<?php
require __DIR__ . '/signal.inc';
pcntl_async_signals(true);
$sender = null;

function wait_a_minute(): void
{
    try {
        Rapier\Coroutine::sleep(60);
        echo "not reached\n";
    } finally {
        echo "finally of the waiting coroutine\n";
    }
}

try {
    Rapier\run(function () use (&$sender) {
        Rapier\go('wait_a_minute');
        pcntl_signal(SIGUSR1, function () {
            throw new RuntimeException('stop, said the handler');
        });
        $sender = rapier_test_signal_when_idle(SIGUSR1);
    });
    echo "not reached\n";
} catch (RuntimeException $e) {
    echo "Rapier\\run() threw: ", $e->getMessage(), "\n";
}
proc_close($sender);

register_shutdown_function(function () use (&$sender) {
    proc_close($sender);
    echo "shutdown\n";
});
Rapier\run(function () use (&$sender) {
    Rapier\go('wait_a_minute');
    pcntl_signal(SIGTERM, function () {
        echo "exiting\n";
        exit(0);
    });
    $sender = rapier_test_signal_when_idle(SIGTERM);
});
echo "not reached\n";
?>
--EXPECT--
finally of the waiting coroutine
Rapier\run() threw: stop, said the handler
exiting
finally of the waiting coroutine
shutdown
