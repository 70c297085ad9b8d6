--TEST--
Coroutine::count() and list() report live coroutines
--EXTENSIONS--
rapier
--FILE--
<?php
var_dump(Rapier\Coroutine::count(), Rapier\Coroutine::list());
Rapier\run(function () {
    $release = new Rapier\Channel();
    $a = Rapier\go(fn() => $release->pop());
    $b = Rapier\go(fn() => $release->pop());
    Rapier\Coroutine::sleep(0);
    echo Rapier\Coroutine::count(), " live: ", implode(",", Rapier\Coroutine::list()), "\n";
    var_dump(Rapier\Coroutine::exists($a));
    $release->push(1);
    Rapier\Coroutine::sleep(0);
    var_dump(Rapier\Coroutine::exists($a), Rapier\Coroutine::exists($b));
    $release->push(2);
});
?>
--EXPECTF--
int(0)
array(0) {
}
3 live: 1,2,3
bool(true)
bool(false)
bool(true)
