--TEST--
Channel: after close() buffered values are still popped, then pop() returns false at once
--EXTENSIONS--
rapier
--FILE--
<?php
$ch = new Rapier\Channel(3);
$ch->push('a');
$ch->push('b');
$ch->close();
var_dump($ch->length());
var_dump($ch->pop(), $ch->pop());
// Drained: false without waiting, outside a coroutine too.
var_dump($ch->pop(), $ch->pop());

Rapier\run(function () {
    $ch = new Rapier\Channel(1);
    $ch->push(0);
    $ch->close();
    var_dump($ch->pop());
    var_dump($ch->pop());
});
?>
--EXPECT--
int(2)
string(1) "a"
string(1) "b"
bool(false)
bool(false)
int(0)
bool(false)
