--TEST--
exit() inside a coroutine ends the script like stock PHP, unwinding the others
--EXTENSIONS--
rapier
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown ran\n"));
Rapier\run(function () {
    Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(5);
        } finally {
            echo "sleeper unwound\n";
        }
    });
    Rapier\Coroutine::sleep(0.001);
    echo "exiting\n";
    exit(0);
});
echo "not reached\n";
?>
--EXPECTF--
exiting
sleeper unwound
shutdown ran
