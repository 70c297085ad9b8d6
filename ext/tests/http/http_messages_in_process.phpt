--TEST--
HTTP messages: with workers 0 the one process is worker 0 and its messages come back to it as copies, in order, each in a coroutine of its own (one still running at the stop is canceled quietly); a flood to itself waits while 1,000 run; misuse throws with a message that says what to do
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/* Through $GLOBALS: a closure holding the server would be a cycle, which PHP reports as a leak at exit. */
$srv = http_server_start('function ($req, $res) {
    $server = $GLOBALS["server"];
    if ($req->path === "/flood") {
        /* 3,000 messages to itself, whose handlers wait: the sender waits while 1,000 run. */
        for ($i = 0; $i < 3000; $i++) {
            $server->sendMessage("flood", 0);
        }
        while ($GLOBALS["flood"][2] < 3000) {
            Rapier\Coroutine::sleep(0.01);
        }
        $res->json($GLOBALS["flood"]);
        return;
    }
    $obj = new ArrayObject(["v" => 1]);
    $server->sendMessage($obj, 0);
    $obj["v"] = 2;
    $sent = $server->broadcastMessage("all");
    foreach (range(1, 50) as $i) {
        $server->sendMessage($i, 0);
    }
    $server->sendMessage("throw", 0);
    $server->sendMessage("linger", 0);
    $server->sendMessage("last", 0);
    $errors = [];
    foreach ([fn() => $server->sendMessage(1, 1), fn() => $server->sendMessage(1, -1),
        fn() => $server->sendMessage(fn() => 1, 0), fn() => $server->sendMessage(str_repeat("x", 2000), 0)] as $f) {
        try {
            $f();
            $errors[] = "no exception";
        } catch (Throwable $e) {
            $errors[] = get_class($e) . ": " . $e->getMessage();
        }
    }
    while (count($GLOBALS["got"]) < 53) {
        Rapier\Coroutine::sleep(0.001);
    }
    $stats = $server->stats();
    $res->json(["sent" => $sent, "got" => $GLOBALS["got"], "errors" => $errors,
        "stats" => [$stats["messages_sent"], $stats["messages_received"]]]);
}', ['message_max_payload' => 1024, 'shutdown_timeout' => 0.5], '$got = []; $flood = [0, 0, 0]; /* running, most at once, done */', '$server->on("message", function ($m, $from) {
    if ($m === "flood") {
        $f = &$GLOBALS["flood"];
        $f[1] = max($f[1], ++$f[0]);
        Rapier\Coroutine::sleep(0.01);
        $f[0]--;
        $f[2]++;
        return;
    }
    if ($m === "linger") {
        /* Still waiting at the stop: canceled once shutdown_timeout has passed, and that is not reported. */
        Rapier\Coroutine::sleep(60);
    }
    if ($m === "throw") {
        throw new DomainException("a handler that throws is reported, and the worker goes on");
    }
    $GLOBALS["got"][] = (is_object($m) ? get_class($m) . ":" . $m["v"] : $m) . "@" . $from;
});');
$j = json_decode(http_get($srv->port, '/')['body'], true);
echo "broadcast sent to: {$j['sent']}\n";
echo "got: ", implode(" ", array_slice($j['got'], 0, 4)), " ... ", implode(" ", array_slice($j['got'], -2)), "\n";
$f = json_decode(http_get($srv->port, '/flood')['body'], true);
echo "flood: {$f[2]} handled, at most 1,000 at once: ", var_export($f[1] <= 1000 && $f[1] >= 500, true), "\n";
echo "stats: sent {$j['stats'][0]}, handlers started {$j['stats'][1]}\n";
echo "in order: ", var_export(array_slice($j['got'], 2, 50) === array_map(fn($i) => "$i@0", range(1, 50)), true), "\n";
echo implode("\n", $j['errors']), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
echo "handler exception logged: ", var_export(str_contains($r['err'] . $r['out'], 'a handler that throws is reported'), true), "\n";
echo "the lingering handler's cancel reported: ", var_export(str_contains($r['err'] . $r['out'], 'CanceledException'), true), "\n";

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
attempt(fn() => $s->sendMessage(1, 0));
$s->on('message', fn() => null);
attempt(fn() => $s->sendMessage(1, 0));
attempt(fn() => $s->broadcastMessage(1));
attempt(fn() => $s->on('mesage', fn() => null));
attempt(fn() => (new ReflectionMethod($s, 'runMessage'))->invoke($s, serialize(1), 0));
attempt(fn() => new Rapier\Http\Server('127.0.0.1', 0, ['message_max_payload' => 10]));
?>
--EXPECT--
broadcast sent to: 1
got: ArrayObject:1@0 all@0 1@0 2@0 ... 50@0 last@0
flood: 3000 handled, at most 1,000 at once: true
stats: sent 55, handlers started 55
in order: true
ValueError: Rapier\Http\Server::sendMessage(): Argument #2 ($workerId) must be a worker id, 0 to 0 (workers, then task workers)
ValueError: Rapier\Http\Server::sendMessage(): Argument #2 ($workerId) must be a worker id, 0 to 0 (workers, then task workers)
Exception: Serialization of 'Closure' is not allowed
Rapier\Exception: Cannot send a message of 2010 bytes serialized: the limit is message_max_payload (1024)
exit: 0
handler exception logged: true
the lingering handler's cancel reported: false
Rapier\Exception: Cannot send a message: the server has no message handler (call $server->on('message', fn) before start())
Rapier\Exception: Cannot send a message here: call it in a worker, a task worker or a user process of the running server
Rapier\Exception: Cannot send a message here: call it in a worker, a task worker or a user process of the running server
ValueError: Rapier\Http\Server::on(): Argument #1 ($event) must be one of "request", "workerStart", "workerStopping", "workerStop", "task" or "message"
Rapier\Exception: Cannot call runMessage(): the server calls it for each message
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "message_max_payload" must be an integer between 1024 and 1073741824
