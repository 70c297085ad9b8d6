--TEST--
Coroutine::context() is private to each coroutine and dies with it
--EXTENSIONS--
rapier
--FILE--
<?php
class Probe { function __destruct() { echo "context value destroyed\n"; } }
Rapier\run(function () {
    Rapier\Coroutine::context()['user'] = 'main';
    $id = Rapier\go(function () {
        $ctx = Rapier\Coroutine::context();
        var_dump(isset($ctx['user']));
        $ctx['user'] = 'child';
        $ctx['probe'] = new Probe();
        Rapier\Coroutine::sleep(0.001);
        echo "child sees ", $ctx['user'], "\n";
    });
    Rapier\Coroutine::sleep(0);
    echo "main reads child: ", Rapier\Coroutine::context($id)['user'], "\n";
    Rapier\Coroutine::sleep(0.01);
    echo "main sees ", Rapier\Coroutine::context()['user'], "\n";
    try {
        Rapier\Coroutine::context($id);
    } catch (Rapier\Exception $e) {
        echo $e->getMessage(), "\n";
    }
});
?>
--EXPECTF--
bool(false)
main reads child: child
child sees child
context value destroyed
main sees main
Cannot get the context of coroutine #2: no such coroutine is alive
