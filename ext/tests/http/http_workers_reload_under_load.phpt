--TEST--
HTTP workers: SIGUSR1 reloads the workers under continuous load without a single failed request; afterwards new pids of generation 2 serve
--EXTENSIONS--
rapier
--SKIPIF--
--INI--
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/workers.inc';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2]);
$old = $srv->readyPids($srv->status());
$port = $srv->port;

/* One request on a new connection, by a coroutine (the stream is hooked); the serving pid or an error. */
function get_pid(int $port): int|string
{
    $s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 3);
    if ($s === false) {
        return "connect: $errstr";
    }
    if (@fwrite($s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") === false) {
        return "write failed";
    }
    $resp = '';
    while (!feof($s)) {
        $chunk = @fread($s, 8192);
        if ($chunk === false || ($chunk === '' && stream_get_meta_data($s)['timed_out'])) {
            break;
        }
        $resp .= $chunk;
    }
    fclose($s);
    if (!preg_match('~^HTTP/1\.1 200 .*?\r\n\r\n(.*)$~s', $resp, $m)) {
        return 'bad response: ' . json_encode(substr($resp, 0, 200));
    }
    return json_decode($m[1], true)['pid'];
}

$failures = [];
$served = [];          /* pid => requests */
$after = [];           /* pids that served once the reload was complete */
$done = false;
$reloaded = null;
$t0 = microtime(true);
Rapier\run(function () use ($srv, $port, $old, &$failures, &$served, &$after, &$done, &$reloaded, $t0) {
    $wg = new Rapier\WaitGroup();
    for ($k = 0; $k < 8; $k++) {
        $wg->add();
        Rapier\go(function () use ($port, $wg, &$failures, &$served, &$after, &$done, &$reloaded) {
            while (!$done) {
                /* Sent once the old generation had exited: only new workers may answer it. */
                $late = $reloaded !== null;
                $r = get_pid($port);
                if (is_string($r)) {
                    $failures[] = $r;
                    continue;
                }
                $served[$r] = ($served[$r] ?? 0) + 1;
                if ($late) {
                    $after[$r] = true;
                }
            }
            $wg->done();
        });
    }
    /* Load runs for 0.3 s, then SIGUSR1; the load goes on until the old generation is gone and 1.5 s have passed. */
    Rapier\Coroutine::sleep(0.3);
    workers_kill($srv->masterPid, SIGUSR1);
    $deadline = microtime(true) + http_test_timeout(4);
    while (microtime(true) < $deadline) {
        $st = $srv->status();
        if ($st !== null && $st['generations']['worker'] === 2 && count($srv->readyPids($st)) === 2
                && count($st['workers']) === 2) {
            $reloaded ??= $st;
            if (microtime(true) - $t0 >= 1.5 && count($after) > 0) {
                break;
            }
        }
        Rapier\Coroutine::sleep(0.02);
    }
    $done = true;
    $wg->wait();
});

$total = array_sum($served);
echo "requests: ", $total >= 100 ? "at least 100" : $total, ", failed: ", count($failures), "\n";
foreach (array_slice($failures, 0, 5) as $f) {
    echo "  $f\n";
}
echo "reload completed under load: ", var_export($reloaded !== null, true), "\n";
$new = $srv->readyPids($reloaded ?? $srv->status());
echo "generation: {$reloaded['generations']['worker']}, new pids: ", count($new), ", none of them old: ",
    var_export(!array_intersect($new, $old), true), "\n";
$gens = array_unique(array_column($reloaded['workers'], 'generation'));
echo "every live worker of generation: ", implode(',', $gens), "\n";
echo "old workers served before the reload: ", var_export(count(array_intersect(array_keys($served), $old)) > 0, true), "\n";
echo "once reloaded, only new workers served: ", var_export(!array_diff(array_keys($after), $new), true), "\n";
echo "old worker processes alive: ", count(array_filter($old, fn($p) => !workers_proc_exited($p))), "\n";
echo "restarts: {$reloaded['restarts']}, zombies: ", count($srv->zombies()), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
requests: at least 100, failed: 0
reload completed under load: true
generation: 2, new pids: 2, none of them old: true
every live worker of generation: 2
old workers served before the reload: true
once reloaded, only new workers served: true
old worker processes alive: 0
restarts: 0, zombies: 0
exit: 0
leftover processes: none
