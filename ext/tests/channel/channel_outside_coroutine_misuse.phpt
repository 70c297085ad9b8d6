--TEST--
Channel: an operation that would have to wait outside a coroutine throws Rapier\Exception
--EXTENSIONS--
rapier
--FILE--
<?php
$empty = new Rapier\Channel(1);
try {
    $empty->pop();
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$full = new Rapier\Channel(1);
$full->push(1);
try {
    $full->push(2, 1.5);
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    (new Rapier\Channel())->push('rendezvous');
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// Nothing changed.
var_dump($empty->length(), $full->length(), $full->pop());
?>
--EXPECT--
Rapier\Exception: Cannot call Rapier\Channel::pop() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
Rapier\Exception: Cannot call Rapier\Channel::push() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
Rapier\Exception: Cannot call Rapier\Channel::push() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
int(0)
int(1)
int(1)
