--TEST--
Rapier\run() rethrows the main coroutine's exception after the others finish
--EXTENSIONS--
rapier
--FILE--
<?php
try {
    Rapier\run(function () {
        Rapier\go(function () { Rapier\Coroutine::sleep(0.01); echo "other finished\n"; });
        throw new DomainException("main failed");
    });
} catch (DomainException $e) {
    echo "caught: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
other finished
caught: main failed
