--TEST--
HTTP workers: workerStart and workerStop run once in each worker process, with that worker's id, and never in the master
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$code = <<<'PHP'
function on_worker_start($server, $id) {
    /* One write per line: the workers share the pipe, and separate writes of a line could interleave. */
    echo "workerStart id=$id workerId={$server->workerId()} pid=" . getmypid() . "\n";
}
PHP;
$after = <<<'PHP'
$server->on('workerStop', function ($server, $id) {
    echo "workerStop id=$id workerId={$server->workerId()} pid=" . getmypid() . "\n";
});
PHP;
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 3], $code, $after);
$st = $srv->status();
$expected = [];
foreach ($st['workers'] as $w) {
    $expected[] = "id={$w['index']} workerId={$w['index']} pid={$w['pid']}";
}
sort($expected);
$r = $srv->stop();
workers_report_stop($r);

foreach (['workerStart', 'workerStop'] as $event) {
    preg_match_all("~^$event (.*)$~m", $r['out'], $m);
    $lines = $m[1];
    sort($lines);
    echo "$event: ", count($lines), " lines, one per worker with its id and pid: ", var_export($lines === $expected, true), "\n";
}
echo "master ran none: ", var_export(!str_contains($r['out'], "pid={$srv->masterPid}\n"), true), "\n";
/* In each worker workerStart comes before "ready" and workerStop after it. */
$order = true;
foreach ($expected as $e) {
    $lines = array_values(array_filter(explode("\n", $r['out']), fn($l) => str_ends_with($l, $e)));
    $order = $order && count($lines) === 2 && str_starts_with($lines[0], 'workerStart') && str_starts_with($lines[1], 'workerStop');
}
echo "start before stop in each worker: ", var_export($order, true), "\n";
echo "start() returned: ", substr_count($r['out'], "start() returned"), "\n";
?>
--EXPECT--
exit: 0
leftover processes: none
workerStart: 3 lines, one per worker with its id and pid: true
workerStop: 3 lines, one per worker with its id and pid: true
master ran none: true
start before stop in each worker: true
start() returned: 1
