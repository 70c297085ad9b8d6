--TEST--
HTTP tasks: with workers 0 a task runs in a coroutine of the same process, on copies of its data and result; misuse throws with a message that says what to do
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/* Through $GLOBALS: a closure holding the server would be a cycle, which PHP reports as a leak at exit. */
$srv = http_server_start('function ($req, $res) {
    $server = $GLOBALS["server"];
    $obj = new ArrayObject(["v" => 1]);
    $r = $server->task($obj);
    $res->json(["pid" => getmypid(), "caller_copy" => $obj["v"], "result" => $r["v"], "task_pid" => $r["pid"],
        "again" => $server->task(["n" => 2])["n"]]);
}', ['task_workers' => 2], '', '$server->on("task", function ($data, $id) {
    Rapier\Coroutine::sleep(0.01);
    $data["v"] = ($data["v"] ?? 0) + 10;
    $data["pid"] = getmypid();
    return $data;
});');
$j = json_decode(http_get($srv->port, '/')['body'], true);
echo "same process: ", var_export($j['pid'] === $j['task_pid'], true), ", caller's object untouched: {$j['caller_copy']}",
    ", result: {$j['result']}, second: {$j['again']}\n";
http_report_stop($srv);

function attempt(callable $fn): void
{
    try {
        $fn();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$s = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0]);
attempt(fn() => $s->task(1));
$s = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0, 'task_workers' => 1]);
attempt(fn() => $s->task(1));
attempt(fn() => $s->task(1, NAN));
$s->on('request', fn() => null);
attempt(fn() => $s->start());
attempt(fn() => new Rapier\Http\Server('127.0.0.1', 0, ['task_max_payload' => 10]));
?>
--EXPECT--
same process: true, caller's object untouched: 1, result: 11, second: 2
exit: 0
Rapier\Exception: Cannot run a task: the server has no task workers (set the "task_workers" option)
Rapier\Exception: Cannot run a task here: call task() from a request handler or another coroutine of a request worker
ValueError: Rapier\Http\Server::task(): Argument #2 ($timeout) must not be NAN
Rapier\Exception: Cannot start task workers without a task handler: call $server->on('task', fn) first
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "task_max_payload" must be an integer between 1024 and 1073741824
