--TEST--
Channel: a NaN timeout throws ValueError before anything happens
--EXTENSIONS--
rapier
--FILE--
<?php
$ch = new Rapier\Channel(1);
try {
    $ch->push(1, NAN);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($ch->length());
$ch->push(1);
try {
    $ch->pop(NAN);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($ch->length());
?>
--EXPECT--
Rapier\Channel::push(): Argument #2 ($timeout) must not be NAN
int(0)
Rapier\Channel::pop(): Argument #1 ($timeout) must not be NAN
int(1)
