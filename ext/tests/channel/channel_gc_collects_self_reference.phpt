--TEST--
Channel: a channel whose buffer holds itself is collected by the cycle collector
--EXTENSIONS--
rapier
--FILE--
<?php
$ch = new Rapier\Channel(2);
$ch->push($ch);
$ch->push(['nested' => $ch]);
$ref = WeakReference::create($ch);
unset($ch);
var_dump($ref->get() instanceof Rapier\Channel);
var_dump(gc_collect_cycles() > 0);
var_dump($ref->get());
?>
--EXPECT--
bool(true)
bool(true)
NULL
