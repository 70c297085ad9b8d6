--TEST--
WaitGroup: wait() outside a coroutine returns when the counter is zero, throws when it would wait
--EXTENSIONS--
rapier
--FILE--
<?php
$wg = new Rapier\WaitGroup();
var_dump($wg->wait());
$wg->add(2);
try {
    $wg->wait();
} catch (Rapier\Exception $e) {
    echo $e->getMessage(), "\n";
}
try {
    $wg->wait(NAN);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$wg->done();
$wg->done();
var_dump($wg->wait());
?>
--EXPECT--
bool(true)
Cannot call Rapier\WaitGroup::wait() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
Rapier\WaitGroup::wait(): Argument #1 ($timeout) must not be NAN
bool(true)
