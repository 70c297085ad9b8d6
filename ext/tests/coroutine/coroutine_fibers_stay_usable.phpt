--TEST--
Coroutines are real Fibers: Fiber::getCurrent() works and user Fibers still run inside coroutines
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    var_dump(Fiber::getCurrent() instanceof Fiber);
    $f = new Fiber(function () {
        $x = Fiber::suspend('from user fiber');
        /* Not a Rapier coroutine: sleeping blocks instead of switching. */
        usleep(1000);
        return $x * 2;
    });
    var_dump($f->start());
    $f->resume(21);
    var_dump($f->getReturn());
    var_dump(Rapier\Coroutine::id());
});
?>
--EXPECTF--
bool(true)
string(15) "from user fiber"
int(42)
int(1)
