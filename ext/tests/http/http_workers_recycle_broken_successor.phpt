--TEST--
HTTP workers: a worker past max_requests whose successors cannot start (broken code on disk) keeps serving every request; once the code is fixed a successor replaces it
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: recycling runs under valgrind in http_workers_max_requests_recycles; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
/* The first worker starts; every later one throws while the flag file exists. */
$flag = tempnam(sys_get_temp_dir(), 'rapier-broken-');
unlink($flag);
$code = 'function on_worker_start($server, $id) {
    if (file_exists(' . var_export($flag, true) . ')) {
        throw new RuntimeException("the application does not load");
    }
}';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1, 'max_requests' => 5], $code);
[$first] = $srv->readyPids($srv->status());
touch($flag);

/* Past max_requests, while successor after successor fails (0, 100, 200, 400 ms of back-off...). */
$failed = 0;
$pids = [];
$deadline = microtime(true) + 1.5;
for ($i = 0; microtime(true) < $deadline || $i < 30; $i++) {
    $j = workers_get_json($srv->port, "/$i");
    $failed += $j === null;
    $pids[$j['pid'] ?? 0] = true;
    usleep(20000);
}
$st = $srv->status();
echo "failed requests: $failed, served by the first worker only: ", var_export(array_keys($pids) === [$first], true), "\n";
echo "successors failed: ", var_export($st['restarts'] >= 2, true), ", the first worker still ready: ",
    var_export($srv->readyPids($st) === [$first], true), "\n";

/* Fixed: the next try starts, and the first worker is replaced. */
unlink($flag);
$st = $srv->waitStatus(fn($st) => count($srv->readyPids($st)) === 1 && $srv->readyPids($st) !== [$first]
    && count($st['workers']) === 1, 10, 'a successor to replace the first worker');
$j = workers_get_json($srv->port, '/after');
echo "served by the successor: ", var_export($j !== null && $j['pid'] !== $first, true), "\n";
echo "first worker gone: ", var_export(workers_proc_exited($first), true), "\n";
$r = $srv->stop();
workers_report_stop($r);
echo "the failures were logged: ", var_export(str_contains($r['err'], 'the application does not load'), true), "\n";
?>
--EXPECT--
failed requests: 0, served by the first worker only: true
successors failed: true, the first worker still ready: true
served by the successor: true
first worker gone: true
exit: 0
leftover processes: none
the failures were logged: true
