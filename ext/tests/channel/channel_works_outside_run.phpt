--TEST--
Channel: operations that need no wait work outside Rapier\run(), and values carry into a run
--EXTENSIONS--
rapier
--FILE--
<?php
$ch = new Rapier\Channel(2);
$obj = new stdClass();
$obj->n = 1;
var_dump($ch->push($obj), $ch->push([1, 2, 3]));
Rapier\run(function () use ($ch) {
    var_dump($ch->pop()->n, $ch->pop());
    Rapier\go(fn () => $ch->push('from a coroutine'));
});
var_dump($ch->pop(0));
?>
--EXPECT--
bool(true)
bool(true)
int(1)
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
string(16) "from a coroutine"
