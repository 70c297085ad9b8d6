--TEST--
HTTP workers: with max_requests 20 and one worker, 100 requests (keep-alive and new connections) all succeed while the worker is recycled by successors; the status counts the recycles
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1, 'max_requests' => 20]);
$first = $srv->readyPids($srv->status());

/*
 * Half on keep-alive connections (reopened when the server closes one), half
 * on new connections: 100 requests, and on until a third worker has answered
 * (two recycles), as a recycled worker serves on until its successor is ready,
 * however long that takes on a loaded machine.
 */
$served = [];
$failures = [];
$c = null;
$deadline = time() + (int) http_test_timeout(30);
for ($i = 0; $i < 100 || (count($served) < 3 && time() < $deadline); $i++) {
    if ($i % 2 === 0) {
        $j = workers_get_json($srv->port, "/$i");
    } else {
        /*
         * A retiring worker closes its idle keep-alive connections: a request
         * sent on one as it closes gets no answer, and is retried once on a
         * new connection, as HTTP clients do.
         */
        do {
            $reused = $c !== null;
            try {
                $c ??= @new HttpTestConn($srv->port);
                $c->send("GET /$i HTTP/1.1\r\nHost: x\r\n\r\n");
                $r = $c->response();
            } catch (RuntimeException $e) {
                $r = null;
            }
            if ($r === null || strtolower($r['headers']['connection'][0] ?? '') === 'close') {
                $c?->close();
                $c = null;
            }
        } while ($r === null && $reused);
        $j = $r !== null && $r['status'] === 200 ? json_decode($r['body'], true) : null;
    }
    if ($j === null || $j['path'] !== "/$i") {
        $failures[] = $i;
        continue;
    }
    $served[$j['pid']] = ($served[$j['pid']] ?? 0) + 1;
}
$c?->close();
echo "failed requests: ", $failures ? implode(',', $failures) : 'none', "\n";
echo "served by more than one pid: ", var_export(count($served) > 1, true), "\n";
/* A recycled worker served its 20 (plus any connection still waiting in its backlog when it stopped). */
$last = array_key_last($served);
$recycled = array_diff_key($served, [$last => 0]);
echo "every recycled worker served at least 20: ", min($recycled ?: [0]) >= 20 ? 'true' : 'false, ' . json_encode($served), "\n";
echo "the first worker served: ", var_export(isset($served[$first[0]]), true), "\n";

/*
 * The last successor is ready, and alone. A recycled worker serves on while
 * its successor starts, so it may answer more than 20: one recycle at least
 * per worker that served and was replaced.
 */
$st = $srv->waitStatus(fn($st) => count($st['workers']) === 1 && count($srv->readyPids($st)) === 1, 30, 'one ready worker');
echo "recycles > 0: ", var_export($st['recycles'] > 0, true), ", one per replaced worker: ",
    var_export($st['recycles'] >= count($served) - 1, true), ", restarts: {$st['restarts']}\n";
echo "requests in status: ", $st['totals']['requests'] === $i ? 'as many as sent' : "{$st['totals']['requests']} of $i", "\n";
echo "first worker gone: ", var_export(workers_proc_exited($first[0]), true), ", zombies: ", count($srv->zombies()), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
failed requests: none
served by more than one pid: true
every recycled worker served at least 20: true
the first worker served: true
recycles > 0: true, one per replaced worker: true, restarts: 0
requests in status: as many as sent
first worker gone: true, zombies: 0
exit: 0
leftover processes: none
