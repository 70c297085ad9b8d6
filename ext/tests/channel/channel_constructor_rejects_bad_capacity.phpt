--TEST--
Channel: a negative capacity throws ValueError; the constructor cannot run twice
--EXTENSIONS--
rapier
--FILE--
<?php
try {
    new Rapier\Channel(-1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    new Rapier\Channel(PHP_INT_MAX);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$ch = new Rapier\Channel(2);
$ch->push('kept');
try {
    $ch->__construct(5);
} catch (Rapier\Exception $e) {
    echo $e->getMessage(), "\n";
}
var_dump($ch->capacity(), $ch->pop());
try {
    clone $ch;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Rapier\Channel::__construct(): Argument #1 ($capacity) must be between 0 and 2147483647
Rapier\Channel::__construct(): Argument #1 ($capacity) must be between 0 and 2147483647
Cannot call Rapier\Channel::__construct() twice
int(2)
string(4) "kept"
Trying to clone an uncloneable object of class Rapier\Channel
