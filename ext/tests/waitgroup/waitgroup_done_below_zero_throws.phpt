--TEST--
WaitGroup: done() without a matching add() throws and leaves the counter at zero
--EXTENSIONS--
rapier
--FILE--
<?php
$wg = new Rapier\WaitGroup();
$wg->add();
$wg->done();
try {
    $wg->done();
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// Still zero, not -1: waiting returns at once.
var_dump($wg->wait());
$wg->add();
var_dump($wg->wait(0));
?>
--EXPECT--
Rapier\Exception: Cannot call done() more times than add()
bool(true)
bool(false)
