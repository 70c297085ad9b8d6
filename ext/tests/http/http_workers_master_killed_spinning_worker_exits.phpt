--TEST--
HTTP workers: after kill -9 of the master, a worker whose handler spins in a CPU loop (its loop never reads SIGTERM) still ends, shutdown_timeout plus the master's grace later, and frees the port; an idle worker drains at once
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: its handler spins on the CPU until the orphaned worker ends; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) use ($server) {
    if ($req->path === "/spin") {
        for (;;) {
        }
    }
    $res->json(["pid" => getmypid(), "worker" => $server->workerId(), "path" => $req->path]);
}';
$srv = new WorkersTestServer($handler, ['workers' => 2, 'shutdown_timeout' => 0.2]);
[$pid0, $pid1] = $srv->readyPids($srv->status());

/* One request that spins for good; whichever worker took it runs without a pause. */
$c = new HttpTestConn($srv->port);
$c->send("GET /spin HTTP/1.1\r\nHost: x\r\n\r\n");
/* Running at three samples in a row: an idle worker is only ever caught running for an instant. */
$spinning = null;
$running = [$pid0 => 0, $pid1 => 0];
$deadline = microtime(true) + http_test_timeout(5);
while ($spinning === null && microtime(true) < $deadline) {
    usleep(50000);
    foreach ($running as $pid => $n) {
        $running[$pid] = workers_proc_state($pid) === 'R' ? $n + 1 : 0;
        if ($running[$pid] >= 3) {
            $spinning = $pid;
        }
    }
}
$idle = $spinning === $pid0 ? $pid1 : $pid0;
echo "a worker spins: ", var_export($spinning !== null, true), "\n";

$t0 = microtime(true);
workers_kill($srv->masterPid, SIGKILL);
$idleGone = $spinningGone = null;
while (microtime(true) - $t0 < http_test_timeout(12) && ($idleGone === null || $spinningGone === null)) {
    $idleGone ??= workers_proc_exited($idle) ? microtime(true) - $t0 : null;
    $spinningGone ??= workers_proc_exited($spinning) ? microtime(true) - $t0 : null;
    usleep(20000);
}
echo "idle worker drained and exited: ", var_export($idleGone !== null && $idleGone < http_test_timeout(2), true), "\n";
/* 0.2 s of shutdown_timeout and the master's 5 s of grace: about 5.2 s after the master died. */
echo "spinning worker killed: ", var_export($spinningGone !== null && $spinningGone >= 5.0, true), "\n";
$free = @stream_socket_client("tcp://127.0.0.1:{$srv->port}", $errno, $errstr, 1) === false;
echo "port free: ", var_export($free, true), "\n";
$r = $srv->stop(0, 1);
echo 'leftover processes: ', $r['leftovers'] ? implode(' ', $r['leftovers']) : 'none', "\n";
?>
--EXPECT--
a worker spins: true
idle worker drained and exited: true
spinning worker killed: true
port free: true
leftover processes: none
