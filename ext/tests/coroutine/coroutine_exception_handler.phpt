--TEST--
Coroutine::setExceptionHandler() receives uncaught exceptions with the coroutine id
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\Coroutine::setExceptionHandler(function (Throwable $e, int $id) {
    echo "handler: ", get_class($e), " '", $e->getMessage(), "' from #$id\n";
});
Rapier\run(function () {
    Rapier\go(function () { throw new LogicException("first"); });
    Rapier\go(function () { Rapier\Coroutine::sleep(0.001); throw new LogicException("second"); });
});
Rapier\Coroutine::setExceptionHandler(null);
echo "done\n";
?>
--EXPECTF--
handler: LogicException 'first' from #2
handler: LogicException 'second' from #3
done
