--TEST--
WaitGroup: waiting on a group nobody will finish ends Rapier\run() with a DeadlockException
--EXTENSIONS--
rapier
--FILE--
<?php
try {
    Rapier\run(function () {
        $wg = new Rapier\WaitGroup();
        $wg->add();
        $wg->wait();
    });
} catch (Rapier\DeadlockException $e) {
    var_dump(str_contains($e->getMessage(), 'a WaitGroup'));
}
?>
--EXPECT--
bool(true)
