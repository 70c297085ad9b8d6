--TEST--
WaitGroup: add() with a negative count throws ValueError; add(0) does nothing
--EXTENSIONS--
rapier
--FILE--
<?php
$wg = new Rapier\WaitGroup();
try {
    $wg->add(-1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$wg->add(0);
var_dump($wg->wait(0));
$wg->add(PHP_INT_MAX);
try {
    $wg->add();
} catch (Rapier\Exception $e) {
    echo $e->getMessage(), "\n";
}
var_dump($wg->wait(0));
?>
--EXPECT--
Rapier\WaitGroup::add(): Argument #1 ($n) must be greater than or equal to 0
bool(true)
Cannot add 1: the counter would overflow
bool(false)
