--TEST--
HTTP workers: SIGHUP, SIGUSR1 and SIGUSR2 reaching a worker (sent to the whole process group, as a closed terminal does) do not kill it
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2]);
[$w] = $srv->readyPids($srv->status());
/*
 * No sleep needed to see whether they kill it: SIGTERM goes last, and a
 * worker takes it through its signalfd (drain, exit 0). Pending signals
 * are acted on lowest number first, so a fatal SIGHUP (1), SIGUSR1 (10) or
 * SIGUSR2 (12) would end the process before SIGTERM (15) is read.
 */
foreach ([SIGHUP, SIGUSR1, SIGUSR2, SIGTERM] as $signo) {
    workers_kill($w, $signo);
}
$st = $srv->waitStatus(fn($st) => count($srv->readyPids($st)) === 2 && !in_array($w, $srv->readyPids($st), true),
    3, 'the worker replaced');
$r = $srv->stop();
preg_match("~\(pid $w, generation 1\) ((exited|was killed).*)~", $r['err'], $m);
echo "the worker ", $m[1] ?? 'left no log line', "\n";
workers_report_stop($r);
?>
--EXPECT--
the worker exited with code 0
exit: 0
leftover processes: none
