--TEST--
HTTP: when start() returns, the server has let go of its callbacks: what they captured, the server included (use ($server)), is freed then, not left in a cycle to the end of the script
--EXTENSIONS--
rapier
posix
--FILE--
<?php
final class Captured
{
    public function __construct(private string $name) {}

    public function __destruct()
    {
        echo "{$this->name} freed\n";
    }
}

$server = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0]);
$handlerState = new Captured('what the request handler captured');
$server->on('request', function ($req, $res) use ($server, $handlerState) {
    $res->end('unused');
});
$startState = new Captured('what workerStart captured');
$server->on('workerStart', function () use ($server, $startState) {
    // Stops the server once it serves: the stop signal, from inside the loop.
    Rapier\go(fn() => posix_kill(getmypid(), SIGTERM));
});
unset($handlerState, $startState);
$server->start();
echo "start() returned\n";
try {
    $server->on('request', fn() => null);
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$watch = WeakReference::create($server);
unset($server);
echo "the server is freed with its last reference: ", var_export($watch->get() === null, true), "\n";
?>
--EXPECTF--
what the request handler captured freed
what workerStart captured freed
start() returned
Rapier\Exception: %s
the server is freed with its last reference: true
