--TEST--
HTTP workers: SIGTERM to the master with a handler that outlasts shutdown_timeout: the worker cancels it, cuts its client off, runs workerStop and exits, before the master's SIGKILL (shutdown_timeout plus a grace period)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) {
    echo "handling\n";
    try {
        Rapier\Coroutine::sleep(10);
    } catch (Rapier\CanceledException $e) {
        echo "canceled\n";
        return;
    }
    $res->end("too late");
}';
// workerStop takes a while (flushing, say): it must get to finish.
$after = '$server->on("workerStop", function ($s, $id) { usleep(500000); echo "workerStop done\n"; });';
$srv = new WorkersTestServer($handler, ['workers' => 1, 'shutdown_timeout' => 1], '', $after);
$workers = $srv->readyPids($srv->status());

$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->http->waitFor("handling\n", 3)) {
    die("the request did not reach a handler\n");
}
$srv->http->signal(15);
var_dump($c->response(5));
var_dump($c->eof);

$res = $srv->stop(0);
workers_report_stop($res);
foreach (['canceled', 'workerStop done', 'SIGKILL'] as $word) {
    echo "$word: ", substr_count($res['out'], $word), "\n";
}
echo "worker processes alive: ", count(array_filter($workers, fn($p) => !workers_proc_exited($p))), "\n";
?>
--EXPECT--
NULL
bool(true)
exit: 0
leftover processes: none
canceled: 1
workerStop done: 1
SIGKILL: 0
worker processes alive: 0
