--TEST--
Coroutine::cancel() throws CanceledException into a sleeping coroutine
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $id = Rapier\go(function () {
        try {
            Rapier\Coroutine::sleep(10);
            echo "not reached\n";
        } catch (Rapier\CanceledException $e) {
            echo "canceled: ", $e->getMessage(), "\n";
        }
    });
    Rapier\Coroutine::sleep(0.001);
    var_dump(Rapier\Coroutine::cancel($id));
    var_dump(Rapier\Coroutine::cancel($id));
    var_dump(Rapier\Coroutine::cancel(12345));
});
echo "finished without waiting 10 s\n";
?>
--EXPECTF--
bool(true)
bool(false)
bool(false)
canceled: Coroutine was canceled while sleeping
finished without waiting 10 s
