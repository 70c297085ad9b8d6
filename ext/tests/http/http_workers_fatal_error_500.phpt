--TEST--
HTTP workers: a handler that exhausts memory_limit or max_execution_time gets a 500, so does every request in flight on that worker; the master replaces the worker and serving goes on
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit and memory_get_usage() need Zend\'s allocator, which valgrind and make asan turn off'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) {
    if ($req->path === "/memory") {
        ini_set("memory_limit", "16M");
        $s = str_repeat("x", 64 << 20);
    }
    if ($req->path === "/time") {
        set_time_limit(1);
        for (;;) {
        }
    }
    if ($req->path === "/slow") {
        echo "slow\n";
        Rapier\Coroutine::sleep(5);
    }
    $res->json(["pid" => getmypid()]);
}';
$srv = new WorkersTestServer($handler, ['workers' => 1]);
foreach (['/memory', '/time'] as $i => $path) {
    $before = $srv->readyPids($srv->status());
    $slow = new HttpTestConn($srv->port);
    $slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    $srv->http->waitFor(str_repeat("slow\n", $i + 1), 3);
    $c = new HttpTestConn($srv->port);
    $c->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $c->response();
    echo "$path: {$r['status']} ", trim($r['body']), ", closed: ", var_export($c->closedWithin(2), true), "\n";
    $r = $slow->response();
    echo "  the request in flight beside it: {$r['status']}\n";
    $st = $srv->waitStatus(fn($st) => count($srv->readyPids($st)) === 1 && $srv->readyPids($st) !== $before, 5,
        'a replacement worker');
    $j = workers_get_json($srv->port, '/');
    echo "  the replacement serves: ", var_export($j !== null && $j['pid'] !== $before[0], true),
        ", restarts: {$st['restarts']}\n";
}
$r = $srv->stop();
workers_report_stop($r);
echo "logged: ", var_export(str_contains($r['err'], 'Allowed memory size of 16777216 bytes exhausted')
    && str_contains($r['err'], 'Maximum execution time of 1 second exceeded'), true), "\n";
?>
--EXPECT--
/memory: 500 500 Internal Server Error: the worker failed and is being replaced, closed: true
  the request in flight beside it: 500
  the replacement serves: true, restarts: 1
/time: 500 500 Internal Server Error: the worker failed and is being replaced, closed: true
  the request in flight beside it: 500
  the replacement serves: true, restarts: 2
exit: 0
leftover processes: none
logged: true
