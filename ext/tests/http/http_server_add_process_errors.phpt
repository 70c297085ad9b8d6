--TEST--
HTTP server: addProcess() misuse is refused with Rapier\Exception: without a master (workers 0), once the server has started; it returns the ids in order
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
$single = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0]);
try {
    $single->addProcess(fn() => null);
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$server = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 2]);
var_dump($server->addProcess(fn() => null), $server->addProcess('strlen'));
try {
    $server->addProcess('no_such_function');
} catch (TypeError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
/* In a single-process server, workerStart runs after start(). */
$single->on('request', fn($req, $res) => $res->end());
$single->on('workerStart', function (Rapier\Http\Server $s) {
    try {
        $s->addProcess(fn() => null);
    } catch (Rapier\Exception $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    /* Stops this server: it reads SIGTERM from its loop. */
    function_exists('posix_kill') ? posix_kill(getmypid(), 15) : exec('kill -15 ' . getmypid());
});
$single->start();
echo "done\n";
?>
--EXPECT--
Rapier\Exception: Cannot add a process to a server without a master: set the "workers" option to 1 or more
int(0)
int(1)
TypeError: Rapier\Http\Server::addProcess(): Argument #1 ($fn) must be a valid callback, function "no_such_function" not found or invalid function name
Rapier\Exception: Cannot add a process once the server has started
done
