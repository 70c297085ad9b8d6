--TEST--
HTTP workers: while a killed worker's replacement is still starting, new connections go to the worker that is ready (none wait in the empty slot's queue); once both are ready, both serve again
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: steering connections from an empty slot runs under valgrind whenever workers start (http_workers_two_workers_serve); the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
/* While the flag file exists, a starting worker takes its time in workerStart. */
$flag = tempnam(sys_get_temp_dir(), 'rapier-slow-');
unlink($flag);
$code = 'function on_worker_start($server, $id) {
    if (file_exists(' . var_export($flag, true) . ')) {
        usleep(' . (int) (http_test_timeout(4) * 1e6) . ');
    }
}';

/* One GET on a new connection that gives up after $timeout seconds; the pid that answered, or null. */
function get_pid(int $port, float $timeout): ?int
{
    $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, $timeout);
    if ($c === false) {
        return null;
    }
    stream_set_timeout($c, (int) ceil($timeout));
    fwrite($c, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    $answer = stream_get_contents($c);
    fclose($c);
    $j = json_decode(substr($answer, (int) strpos($answer, "\r\n\r\n") + 4), true);
    return $j['pid'] ?? null;
}

$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2], $code);
[$pid0, $pid1] = $srv->readyPids($srv->status());
touch($flag);
workers_kill($pid1, SIGKILL);
/* The master has seen the death once worker #1 has a new process, starting. */
$srv->waitStatus(function ($st) use ($pid1) {
    foreach ($st['workers'] as $w) {
        if ($w['index'] === 1 && $w['pid'] !== $pid1 && $w['state'] === 'starting') {
            return true;
        }
    }
    return false;
}, 5, 'worker #1 to be restarting');

$answered = [];
$failed = 0;
for ($i = 0; $i < 20; $i++) {
    $pid = get_pid($srv->port, http_test_timeout(1));
    $failed += $pid === null;
    $answered[$pid ?? 0] = true;
}
echo "while #1 starts: failed $failed of 20, all answered by worker #0: ", var_export(array_keys($answered) === [$pid0], true), "\n";

unlink($flag);
$st = $srv->waitStatus(fn($st) => count($srv->readyPids($st)) === 2, 20, 'both workers ready');
[, $new1] = $srv->readyPids($st);
$answered = [];
for ($i = 0; $i < 40; $i++) {
    $answered[get_pid($srv->port, http_test_timeout(3)) ?? 0] = true;
}
ksort($answered);
$both = [$pid0, $new1];
sort($both);
echo "both ready: answered by both: ", var_export(array_keys($answered) === $both, true), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
while #1 starts: failed 0 of 20, all answered by worker #0: true
both ready: answered by both: true
exit: 0
leftover processes: none
