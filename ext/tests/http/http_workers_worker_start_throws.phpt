--TEST--
HTTP workers: a workerStart that throws is never reported ready and serves nothing; a reload whose new workers throw is abandoned (reload_failures 1) while the old generation keeps serving
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
/* The first generation starts; later ones throw (the flag file appears after the start). */
$flag = tempnam(sys_get_temp_dir(), 'rapier-broken-');
unlink($flag);
$code = 'function on_worker_start($server, $id) {
    if (file_exists(' . var_export($flag, true) . ')) {
        throw new RuntimeException("the application does not load");
    }
}';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2], $code);
$before = $srv->readyPids($srv->status());
touch($flag);
workers_kill($srv->masterPid, SIGUSR1);
$st = $srv->waitStatus(fn($st) => ($st['reload_failures'] ?? 0) >= 1, 10, 'the reload to fail');
echo "reload_failures: {$st['reload_failures']}\n";
$failed = 0;
$pids = [];
for ($i = 0; $i < 20; $i++) {
    $j = workers_get_json($srv->port);
    $failed += $j === null;
    $pids[$j['pid'] ?? 0] = true;
}
echo "failed requests: $failed, served by the old generation only: ",
    var_export(array_keys($pids) == array_intersect(array_keys($pids), $before), true), "\n";
$st = $srv->waitStatus(fn($st) => count($st['workers']) === 2, 5, 'the candidates gone');
echo "generation still: {$st['generations']['worker']}, ready: ", var_export($srv->readyPids($st) === $before, true), "\n";
$r = $srv->stop();
unlink($flag);
workers_report_stop($r);
echo "the failure was logged: ", var_export(str_contains($r['err'], 'the application does not load')
    && str_contains($r['err'], 'reload of workers failed'), true), "\n";
?>
--EXPECT--
reload_failures: 1
failed requests: 0, served by the old generation only: true
generation still: 1, ready: true
exit: 0
leftover processes: none
the failure was logged: true
