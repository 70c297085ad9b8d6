--TEST--
Coroutine-only calls outside Rapier\run() throw Rapier\Exception saying so
--EXTENSIONS--
rapier
--FILE--
<?php
foreach ([
    fn() => Rapier\go(fn() => 1),
    fn() => Rapier\Coroutine::sleep(0.1),
    fn() => Rapier\Coroutine::defer(fn() => 1),
    fn() => Rapier\Coroutine::context(),
    fn() => Rapier\Timer::after(1, fn() => 1),
] as $call) {
    try {
        $call();
    } catch (Rapier\Exception $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
?>
--EXPECTF--
Rapier\Exception: Cannot start a coroutine outside Rapier\run(): wrap the program in Rapier\run()
Rapier\Exception: Cannot call Rapier\Coroutine::sleep() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
Rapier\Exception: Cannot call Rapier\Coroutine::defer() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
Rapier\Exception: Cannot call Rapier\Coroutine::context() outside a coroutine: run the code inside Rapier\run() or Rapier\go()
Rapier\Exception: Cannot start a timer outside Rapier\run(): wrap the program in Rapier\run()
