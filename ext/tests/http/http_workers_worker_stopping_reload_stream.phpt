--TEST--
HTTP workers: at a reload the old worker's workerStopping ends its open event stream (closing the channel the handler waits on): the client gets the whole response, and the reload completes long before shutdown_timeout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$code = <<<'PHP'
$events = new Rapier\Channel();
PHP;
$handler = 'function ($req, $res) use ($events) {
    if ($req->path !== "/events") {
        $res->end("pid " . getmypid());
        return;
    }
    $res->header("Content-Type", "text/event-stream");
    $res->write("data: first\n\n");
    echo "streaming in " . getmypid() . "\n";
    while (($event = $events->pop()) !== false) {
        $res->write("data: $event\n\n");
    }
    $res->end("data: bye\n\n");
}';
$after = <<<'PHP'
$server->on('workerStopping', function ($server, $id) use ($events) {
    echo "workerStopping in " . getmypid() . "\n";
    $events->close();
});
PHP;
$srv = new WorkersTestServer($handler, ['workers' => 1, 'shutdown_timeout' => 20], $code, $after);
[$old] = $srv->readyPids($srv->status());
$c = new HttpTestConn($srv->port);
$c->send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->http->waitFor("streaming in $old\n", 3)) {
    die("the stream did not start\n");
}
$t0 = microtime(true);
$srv->reload(1, 15);
$r = $c->response(5);
$elapsed = microtime(true) - $t0;
echo $r['status'], ' ', json_encode($r['body']), "\n";
var_dump($c->closedWithin(3));
[$new] = $srv->readyPids($srv->status());
echo "served by the new worker: ", var_export(http_get($srv->port, '/')['body'] === "pid $new" && $new !== $old, true), "\n";
var_dump($elapsed < 10);
$res = $srv->stop();
workers_report_stop($res);
echo "workerStopping in the old worker: ", substr_count($res['out'], "workerStopping in $old\n"), "\n";
echo "workerStopping in the new worker: ", substr_count($res['out'], "workerStopping in $new\n"), "\n";
?>
--EXPECT--
200 "data: first\n\ndata: bye\n\n"
bool(true)
served by the new worker: true
bool(true)
exit: 0
leftover processes: none
workerStopping in the old worker: 1
workerStopping in the new worker: 1
