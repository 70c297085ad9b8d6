--TEST--
Outside a coroutine and with hooks off, the sleep family behaves as stock PHP
--EXTENSIONS--
rapier
--FILE--
<?php
$start = hrtime(true);
usleep(20000);
var_dump((hrtime(true) - $start) / 1e6 >= 20);
try { usleep(-1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { sleep(-1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { time_nanosleep(0, -1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
Rapier\run(function () {
    try { usleep(-1); } catch (ValueError $e) { echo "in coroutine: ", $e->getMessage(), "\n"; }
    Rapier\Runtime::disableHooks();
    $order = [];
    Rapier\go(function () use (&$order) { usleep(20000); $order[] = 'slow'; });
    Rapier\go(function () use (&$order) { $order[] = 'fast'; });
    Rapier\Coroutine::sleep(0.05);
    /* Blocking usleep() holds the loop: the slow one still finishes first. */
    echo implode(",", $order), "\n";
    Rapier\Runtime::enableHooks();
});
?>
--EXPECTF--
bool(true)
usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
sleep(): Argument #1 ($seconds) must be greater than or equal to 0
time_nanosleep(): Argument #2 ($nanoseconds) must be greater than or equal to 0
in coroutine: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
slow,fast
