--TEST--
An uncaught exception in a coroutine is reported on stderr and does not stop the others
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    Rapier\go(function () { throw new RuntimeException("boom"); });
    Rapier\go(function () { Rapier\Coroutine::sleep(0.01); echo "survivor finished\n"; });
});
echo "run returned\n";
?>
--EXPECTF--
Rapier: uncaught exception in coroutine #2: RuntimeException: boom in %s:%d
Stack trace:
%A
survivor finished
run returned
