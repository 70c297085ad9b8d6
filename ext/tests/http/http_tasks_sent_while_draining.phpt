--TEST--
HTTP tasks: a task sent while the task worker drains (a task of the same request worker still running there) goes to its successor, and both callers get their results; a draining task worker killed mid-task fails only the task it ran
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
/* The slow task holds on a connection to this socket until the test closes it: no timer decides when it ends. */
$gatePath = tempnam(sys_get_temp_dir(), 'rapier-gate-');
unlink($gatePath);
$gate = stream_socket_server("unix://$gatePath");
$handler = 'function ($req, $res) use ($server) {
    try {
        $out = $server->task($req->path === "/slow" ? "slow" : "quick");
    } catch (Throwable $e) {
        $out = get_class($e) . ": " . $e->getMessage();
    }
    $res->json(["out" => $out]);
}';
$after = '$server->on("task", function ($data) {
    if ($data === "slow") {
        $held = stream_socket_client(' . var_export("unix://$gatePath", true) . ');
        fwrite($held, getmypid() . "\n");
        fgets($held);
    }
    return getmypid();
});';
$srv = new WorkersTestServer($handler, ['workers' => 1, 'task_workers' => 1], '', $after);
$taskPid = function (array $st, string $state): ?int {
    foreach ($st['workers'] as $w) {
        if ($w['role'] === 'task_worker' && $w['state'] === $state) {
            return $w['pid'];
        }
    }
    return null;
};

/* Sends /slow; returns its connection, the held task's, and the pid of the task worker running it. */
function slow_task(int $port, $gate): array
{
    $slow = new HttpTestConn($port);
    $slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    $held = stream_socket_accept($gate, http_test_timeout(30));
    return [$slow, $held, (int) fgets($held)];
}

/* What a quick task returned (its task worker's pid), or null when the request failed. */
function quick_task(int $port): mixed
{
    $r = http_request($port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 30);
    return $r === null ? null : json_decode($r['body'], true)['out'];
}

/*
 * Quick tasks until one is served by a task worker not in $old. The request
 * worker learns of the drain from the task worker (GOODBYE on the channel),
 * after the master reports it; a task sent before that still goes to the
 * draining worker, which runs it.
 */
function successor(int $port, array $old): ?int
{
    return http_test_poll(function () use ($port, $old) {
        $out = quick_task($port);
        return is_int($out) && !in_array($out, $old, true) ? $out : null;
    });
}

$st = $srv->waitStatus(fn($st) => $taskPid($st, 'ready') !== null, 30, 'the task worker ready');
$first = $taskPid($st, 'ready');

[$slow, $held, $pid] = slow_task($srv->port, $gate);
echo "the slow task runs on the first: ", var_export($pid === $first, true), "\n";
workers_kill($srv->masterPid, SIGUSR2);
$srv->waitStatus(fn($st) => $taskPid($st, 'draining') === $first, 30, 'the first task worker draining');
$second = successor($srv->port, [$first]);
echo "a task sent during the drain: ", $second !== null ? 'served by the successor' : 'never served by another', "\n";
fclose($held);
$r = $slow->response(30);
$out = json_decode($r['body'] ?? 'null', true)['out'] ?? null;
echo "the task running at the drain: ", $out === $first ? 'finished by the first' : var_export($out, true), "\n";

/* Again, and the draining one is killed: its caller learns it, the next task goes to the third. */
$srv->waitStatus(fn($st) => $taskPid($st, 'ready') === $second, 30, 'the second task worker ready');
[$slow, $held, $pid] = slow_task($srv->port, $gate);
echo "the slow task runs on the second: ", var_export($pid === $second, true), "\n";
workers_kill($srv->masterPid, SIGUSR2);
$srv->waitStatus(fn($st) => $taskPid($st, 'draining') === $second, 30, 'the second task worker draining');
$third = successor($srv->port, [$first, $second]);
echo "during the second drain: ", $third !== null ? 'served by the third' : 'never served by another', "\n";
workers_kill($second, 9);
$r = $slow->response(30);
echo "the caller of the killed draining worker: ", json_decode($r['body'] ?? 'null', true)['out'] ?? 'no answer', "\n";
fclose($held);
$out = quick_task($srv->port);
echo "afterwards: ", $out === $third ? 'served by the third' : var_export($out, true), "\n";
workers_report_stop($srv->stop());
fclose($gate);
unlink($gatePath);
?>
--EXPECT--
the slow task runs on the first: true
a task sent during the drain: served by the successor
the task running at the drain: finished by the first
the slow task runs on the second: true
during the second drain: served by the third
the caller of the killed draining worker: Rapier\Exception: The task worker exited before answering (see the server log); the task may or may not have run
afterwards: served by the third
exit: 0
leftover processes: none
