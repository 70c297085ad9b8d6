--TEST--
Rapier\parallel(): exit() in a callable ends the script as it does in any coroutine: the caller and the other callables are unwound (their finally blocks run), shutdown functions run, nothing leaks
--EXTENSIONS--
rapier
--FILE--
<?php
register_shutdown_function(fn () => print("shutdown function ran\n"));
Rapier\run(function () {
    try {
        Rapier\parallel([
            'waits' => function () {
                try {
                    Rapier\Coroutine::sleep(30);
                } finally {
                    echo "'waits' unwound\n";
                }
            },
            'exits' => function () {
                Rapier\Coroutine::sleep(0.01);
                echo "exiting\n";
                exit(3);
            },
        ]);
    } finally {
        echo "caller unwound\n";
    }
    echo "not reached\n";
});
echo "not reached either\n";
?>
--EXPECT--
exiting
caller unwound
'waits' unwound
shutdown function ran
