--TEST--
HTTP messages: between request workers, task workers and a user process: a broadcast reaches every worker with its sender's id, a message to a task worker is answered by one back, a user process's messages sent before the workers serve wait for them, 2,000 messages (some of 300 KB, past the high water mark) arrive intact and in order, and a handler that throws does not stop the worker
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$code = '$pongs = null;';
$handler = 'function ($req, $res) use ($server) {
    $me = $server->workerId();
    switch ($req->path) {
        case "/broadcast":
            $res->json(["sent" => $server->broadcastMessage(["hello", $me])]);
            return;
        case "/ping":
            /* The task worker (id 2) answers with a message back to this worker. */
            $GLOBALS["pongs"] ??= new Rapier\Channel(1);
            $server->sendMessage(["ping", $me], 2);
            $res->json(["pong" => $GLOBALS["pongs"]->pop(5)]);
            return;
        case "/flood":
            $big = str_repeat("b", 300000);
            for ($i = 1; $i <= 2000; $i++) {
                $server->sendMessage(["seq", $i, $i % 100 === 0 ? $big : "", md5((string) $i)], 2);
            }
            $server->sendMessage(["end", 2000], 2);
            $res->json(["flooded" => $me]);
            return;
        case "/throw":
            $server->sendMessage(["throw"], 2);
            $res->json(["sent" => true]);
            return;
    }
    $res->status(404)->end();
}';
$after = '$server->on("task", fn ($d) => $d);
$server->addProcess(function ($server) {
    $server->broadcastMessage(["early", getmypid()]);
    /* Exits cleanly at the stop (SIGTERM at its default action would kill it mid-run). */
    Rapier\Coroutine::waitSignal(15);
});
$server->on("message", function (mixed $m, int $from) use ($server) {
    static $next = 1, $bytes = 0, $bad = 0;
    $me = $server->workerId();
    switch ($m[0]) {
        case "hello":
        case "early":
            /* One write per line: the workers share the pipe. */
            echo "worker $me got {$m[0]} from " . ($from === -1 ? "the user process" : "worker $from") . "\n";
            return;
        case "ping":
            $server->sendMessage(["pong", $me], $m[1]);
            return;
        case "pong":
            $GLOBALS["pongs"]?->push("pong from worker {$m[1]} to worker $me");
            return;
        case "seq":
            if ($m[1] !== $next || $m[3] !== md5((string) $m[1]) || ($m[1] % 100 === 0 && strlen($m[2]) !== 300000)) {
                $bad++;
            }
            $next = $m[1] + 1;
            $bytes += strlen($m[2]);
            return;
        case "end":
            echo "flood: " . ($next - 1) . " of {$m[1]} in order, $bad wrong, $bytes bytes\n";
            return;
        case "throw":
            throw new DomainException("a message handler threw");
    }
});';
$srv = new WorkersTestServer($handler, ['workers' => 2, 'task_workers' => 1], $code, $after);

$early = [];
for ($id = 0; $id < 3; $id++) {
    $early[] = $srv->http->waitFor("worker $id got early from the user process", 5) ? "worker $id" : "not worker $id";
}
echo "the user process's early broadcast reached: ", implode(", ", $early), "\n";

$j = workers_get_json($srv->port, '/broadcast');
echo "broadcast sent to {$j['sent']} workers\n";
for ($id = 0; $id < 3; $id++) {
    echo "worker $id got it: ", var_export($srv->http->waitFor("worker $id got hello", 5), true), "\n";
}

for ($i = 0; $i < 4; $i++) {
    $j = workers_get_json($srv->port, '/ping');
    echo preg_replace('/worker [01]$/', 'worker W', $j['pong'] ?? 'no pong'), "\n";
}

$j = workers_get_json($srv->port, '/flood');
echo "flood sent: ", var_export(isset($j['flooded']), true), "\n";
echo $srv->http->waitFor("flood: ", 10) ? "" : "no flood report\n";
preg_match('/flood: .*\n/', $srv->http->output(), $m);
echo $m[0] ?? "\n";

workers_get_json($srv->port, '/throw');
$j = workers_get_json($srv->port, '/broadcast');
$deadline = microtime(true) + http_test_timeout(5);
while (substr_count($srv->http->output(), "worker 2 got hello") < 2 && microtime(true) < $deadline) {
    usleep(10000);
}
echo "after the throw, the task worker still takes messages: ",
    var_export(substr_count($srv->http->output(), "worker 2 got hello") === 2, true), "\n";

/*
 * The status document counts every process's messages: 3 + 3 + 3 broadcast,
 * 4 pings and 4 pongs, 2,001 of the flood and the throw: 2,019 each way.
 */
try {
    $st = $srv->waitStatus(fn ($st) => ($st['totals']['messages_received'] ?? 0) === 2019, 5, '2,019 messages received');
    $byRole = [];
    foreach ($st['workers'] as $w) {
        $byRole[$w['role']][0] = ($byRole[$w['role']][0] ?? 0) + $w['messages_sent'];
        $byRole[$w['role']][1] = ($byRole[$w['role']][1] ?? 0) + $w['messages_received'];
    }
    ksort($byRole);
    echo "status: {$st['totals']['messages_sent']} sent, {$st['totals']['messages_received']} received; ", json_encode($byRole), "\n";
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}

$r = $srv->stop();
workers_report_stop($r);
echo "the exception logged: ", var_export(str_contains($r['err'], 'DomainException: a message handler threw'), true), "\n";
?>
--EXPECT--
the user process's early broadcast reached: worker 0, worker 1, worker 2
broadcast sent to 3 workers
worker 0 got it: true
worker 1 got it: true
worker 2 got it: true
pong from worker 2 to worker W
pong from worker 2 to worker W
pong from worker 2 to worker W
pong from worker 2 to worker W
flood sent: true
flood: 2000 of 2000 in order, 0 wrong, 6000000 bytes
after the throw, the task worker still takes messages: true
status: 2019 sent, 2019 received; {"task_worker":[4,2009],"user_process":[3,0],"worker":[2012,10]}
exit: 0
leftover processes: none
the exception logged: true
