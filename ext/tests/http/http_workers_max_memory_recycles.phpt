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
$limit = 16 << 20;
$srv = new WorkersTestServer($handler, ['workers' => 1, 'max_memory' => $limit]);
$first = [];
$failed = 0;
$max = 0;
$crossings = 0;
for ($i = 0; $i < 60; $i++) {
    $j = workers_get_json($srv->port, '/');
    if ($j === null) {
        $failed++;
        continue;
    }
    $first[$j['pid']] ??= $j['memory'];
    $max = max($max, $j['memory']);
    if ($j['memory'] > $limit) {
        /*
         * A recycled worker serves on until its successor is ready, however
         * long that takes on this machine; waiting here for it to be gone
         * makes what each worker holds independent of that time.
         */
        $crossings++;
        $old = $j['pid'];
        $srv->waitStatus(
            fn($st) => !in_array($old, array_column($st['workers'], 'pid'), true) && count($srv->readyPids($st)) === 1,
            5,
            "worker $old to be replaced"
        );
    }
}
echo "failed: $failed, workers seen: ", count($first) >= 3 ? "3 or more" : count($first), "\n";
/* Each worker stops at the request that took it over the limit. */
echo "no worker went a request past the limit: ", var_export($max < $limit + (2 << 20), true), "\n";
echo "every worker seen went over the limit before the next: ", var_export($crossings >= count($first) - 1, true), "\n";
echo "every successor started small: ", var_export(max(array_slice($first, 1)) < (4 << 20), true), "\n";
$st = $srv->waitStatus(fn($st) => count($st['workers']) === 1 && count($srv->readyPids($st)) === 1, 3, 'one ready worker');
echo "recycles: ", $st['recycles'] >= 2 ? "2 or more" : $st['recycles'], ", restarts: {$st['restarts']}\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
failed: 0, workers seen: 3 or more
no worker went a request past the limit: true
every worker seen went over the limit before the next: true
every successor started small: true
recycles: 2 or more, restarts: 0
exit: 0
leftover processes: none
