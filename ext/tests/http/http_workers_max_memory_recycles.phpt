--TEST--
HTTP workers: max_memory recycles a worker whose PHP memory in use passes the limit after a request; no request fails and the successor starts small
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit and memory_get_usage() need Zend\'s allocator, which valgrind and make asan turn off'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
/* Every request keeps 1 MiB more, as a leaking application would. */
$handler = 'function ($req, $res) {
    static $kept = [];
    $kept[] = str_repeat("x", 1 << 20);
    $res->json(["pid" => getmypid(), "memory" => memory_get_usage()]);
}';
$srv = new WorkersTestServer($handler, ['workers' => 1, 'max_memory' => 16 << 20]);
$pids = [];
$failed = 0;
$max = 0;
for ($i = 0; $i < 60; $i++) {
    $j = workers_get_json($srv->port, '/');
    if ($j === null) {
        $failed++;
        continue;
    }
    $pids[$j['pid']] = ($pids[$j['pid']] ?? 0) + 1;
    $max = max($max, $j['memory']);
}
echo "failed: $failed, workers seen: ", count($pids) >= 3 ? "3 or more" : count($pids), "\n";
/* A recycled worker serves on while its successor starts: a few requests (MiB) over the limit. */
echo "memory stayed near the limit: ", var_export($max < (16 << 20) + (10 << 20), true), "\n";
$st = $srv->waitStatus(fn($st) => count($st['workers']) === 1 && count($srv->readyPids($st)) === 1, 3, 'one ready worker');
echo "recycles: ", $st['recycles'] >= 2 ? "2 or more" : $st['recycles'], ", restarts: {$st['restarts']}\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
failed: 0, workers seen: 3 or more
memory stayed near the limit: true
recycles: 2 or more, restarts: 0
exit: 0
leftover processes: none
