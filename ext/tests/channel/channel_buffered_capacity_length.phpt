--TEST--
Channel: a buffered channel holds up to capacity values, in order
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Channel;

$ch = new Channel(3);
var_dump($ch->capacity(), $ch->length());
var_dump($ch->push(1), $ch->push([2]), $ch->push('three'));
var_dump($ch->length());
// Full: a push that may not wait fails at once.
var_dump($ch->push(4, 0));
var_dump($ch->length());
var_dump($ch->pop(), $ch->pop(), $ch->length());
var_dump($ch->push(5));
var_dump($ch->pop(), $ch->pop(), $ch->length());
// Empty: a pop that may not wait fails at once.
var_dump($ch->pop(0));
var_dump((new Channel())->capacity());
?>
--EXPECT--
int(3)
int(0)
bool(true)
bool(true)
bool(true)
int(3)
bool(false)
int(3)
int(1)
array(1) {
  [0]=>
  int(2)
}
int(1)
bool(true)
string(5) "three"
int(5)
int(0)
bool(false)
int(0)
