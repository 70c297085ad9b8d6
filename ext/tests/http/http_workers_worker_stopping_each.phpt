--TEST--
HTTP workers: workerStopping runs once in each worker and task worker, with its id, between workerStart and workerStop, at a reload (the old workers) and at the stop (the others), and never in the master
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
/* One write per line: the workers share the pipe, and separate writes of a line could interleave. */
$code = <<<'PHP'
function on_worker_start($server, $id) {
    echo "workerStart id=$id pid=" . getmypid() . "\n";
}
PHP;
$after = <<<'PHP'
$server->on('task', fn ($data) => $data);
$server->on('workerStopping', function ($server, $id) {
    echo "workerStopping id=$id pid=" . getmypid() . " workerId=" . $server->workerId() . "\n";
});
$server->on('workerStop', function ($server, $id) {
    echo "workerStop id=$id pid=" . getmypid() . "\n";
});
PHP;
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2, 'task_workers' => 1], $code, $after);
$first = $srv->readyPids($srv->status());
$srv->reload(2);
$second = $srv->readyPids($srv->status());
echo "new workers: ", var_export(count($second) === 2 && !array_intersect($first, $second), true), "\n";
$r = $srv->stop();
workers_report_stop($r);

/* Each process's lines, in the order it printed them. */
$byPid = [];
preg_match_all('~^(workerStart|workerStopping|workerStop) id=(\d+) pid=(\d+)(?: workerId=(\d+))?$~m', $r['out'], $m, PREG_SET_ORDER);
foreach ($m as $line) {
    [, $event, $id, $pid] = $line;
    $workerId = $line[4] ?? $id;
    $byPid[$pid][] = $workerId === $id ? "$event id=$id" : "$event id=$id workerId=$workerId";
}
ksort($byPid);
$sequences = [];
foreach ($byPid as $pid => $lines) {
    $sequences[] = implode(', ', $lines);
}
sort($sequences);
/* The first generation's two workers, the second's two, and the task worker (id 2, after the workers). */
echo implode("\n", $sequences), "\n";
echo "the old workers among them: ", var_export(count(array_intersect(array_keys($byPid), $first)) === 2, true), "\n";
echo "master ran none: ", var_export(!isset($byPid[$srv->masterPid]), true), "\n";
?>
--EXPECT--
new workers: true
exit: 0
leftover processes: none
workerStart id=0, workerStopping id=0, workerStop id=0
workerStart id=0, workerStopping id=0, workerStop id=0
workerStart id=1, workerStopping id=1, workerStop id=1
workerStart id=1, workerStopping id=1, workerStop id=1
workerStart id=2, workerStopping id=2, workerStop id=2
the old workers among them: true
master ran none: true
