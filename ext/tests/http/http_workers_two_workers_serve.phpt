--TEST--
HTTP workers: two worker processes serve requests; the pid file holds the master's pid; the status socket lists both workers ready with their request counts
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2]);
echo "pid file holds the master pid: ", var_export(file_get_contents($srv->pidFile) === "{$srv->masterPid}\n", true), "\n";

$st = $srv->status();
$workers = $srv->readyPids($st);
echo "master in status: ", var_export($st['master']['pid'] === $srv->masterPid, true), "\n";
echo "ready workers: ", count($workers), ", distinct: ", count(array_unique($workers)), ", master among them: ",
    var_export(in_array($srv->masterPid, $workers, true), true), "\n";
echo "generation: {$st['generations']['worker']}, restarts: {$st['restarts']}\n";

/* New connections are spread by SO_REUSEPORT: ask until both workers have answered (bounded). */
$served = [];
$ids = [];
for ($i = 0; $i < 200 && (count($served) < 2 || $i < 20); $i++) {
    $j = workers_get_json($srv->port, "/$i");
    if ($j === null) {
        echo "request $i failed\n";
        continue;
    }
    $served[$j['pid']] = ($served[$j['pid']] ?? 0) + 1;
    $ids[$j['pid']] = $j['worker'];
}
$total = array_sum($served);
ksort($served);
sort($workers);
echo "requests: $total, served by ", count($served), " pids, all of them workers from the status: ",
    var_export(array_keys($served) === $workers, true), "\n";
/* workerId() is the worker's index in the status. */
$byIndex = [];
foreach ($st['workers'] as $w) {
    $byIndex[$w['pid']] = $w['index'];
}
ksort($ids);
ksort($byIndex);
echo "workerId() matches the status index: ", var_export($ids == $byIndex, true), "\n";
sort($ids);
echo "worker ids: ", implode(',', $ids), "\n";

/* The per-worker counters reach the status socket. */
$st = $srv->waitStatus(fn($st) => $st['totals']['requests'] === $total, 3, "$total requests counted");
$counts = [];
foreach ($st['workers'] as $w) {
    $counts[$w['pid']] = $w['requests'];
}
ksort($counts);
echo "per-worker requests match what the client saw: ", var_export($counts == $served, true), "\n";
echo "totals: workers {$st['totals']['workers']}, processes {$st['totals']['processes']}\n";
echo "zombies: ", count($srv->zombies()), "\n";

workers_report_stop($srv->stop());
var_dump(file_exists($srv->pidFile), file_exists($srv->statusSocket));
?>
--EXPECT--
pid file holds the master pid: true
master in status: true
ready workers: 2, distinct: 2, master among them: false
generation: 1, restarts: 0
requests: 20, served by 2 pids, all of them workers from the status: true
workerId() matches the status index: true
worker ids: 0,1
per-worker requests match what the client saw: true
totals: workers 2, processes 2
zombies: 0
exit: 0
leftover processes: none
bool(false)
bool(false)
