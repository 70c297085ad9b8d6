--TEST--
Rapier\go() returns increasing ids and coroutines start in spawn order
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    echo "main id ", Rapier\Coroutine::id(), "\n";
    $ids = [];
    for ($i = 0; $i < 3; $i++) {
        $ids[] = Rapier\go(function () { echo "running ", Rapier\Coroutine::id(), "\n"; });
    }
    echo "spawned ", implode(",", $ids), "\n";
    Rapier\Coroutine::sleep(0);
    echo "main resumes\n";
});
echo "outside id ", Rapier\Coroutine::id(), "\n";
?>
--EXPECTF--
main id 1
spawned 2,3,4
running 2
running 3
running 4
main resumes
outside id -1
