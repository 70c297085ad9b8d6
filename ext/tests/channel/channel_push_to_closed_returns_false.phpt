--TEST--
Channel: push() to a closed channel returns false, even with room in the buffer
--EXTENSIONS--
rapier
--FILE--
<?php
$ch = new Rapier\Channel(4);
var_dump($ch->isClosed());
$ch->close();
var_dump($ch->isClosed());
var_dump($ch->push(1));
var_dump($ch->length());
// Closing twice is harmless.
$ch->close();
var_dump($ch->isClosed());

Rapier\run(function () {
    $ch = new Rapier\Channel();
    $ch->close();
    var_dump($ch->push('x'));
});
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
int(0)
bool(true)
bool(false)
