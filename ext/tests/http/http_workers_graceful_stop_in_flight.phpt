--TEST--
HTTP workers: SIGTERM to the master with a request in flight: the request completes, every process exits, the pid file and status socket are removed, exit code 0
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) use ($server) {
    echo "handling " . getmypid() . "\n";
    Rapier\Coroutine::sleep(0.5);
    $res->end("completed by " . getmypid());
}';
$after = '$server->on("workerStop", function ($s, $id) { echo "workerStop " . getmypid() . "\n"; });';
$srv = new WorkersTestServer($handler, ['workers' => 2], '', $after);
$workers = $srv->readyPids($srv->status());
sort($workers);
echo "processes: ", count($srv->processes()), "\n";

$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->http->waitFor("handling ", 3) || !preg_match('~handling (\d+)\n~', $srv->http->output(), $m)) {
    die("the request did not reach a handler\n");
}
$srv->http->signal(15);
$r = $c->response(5);
echo "in-flight request: {$r['status']} ", $r['body'] === "completed by $m[1]" ? "completed by its worker" : $r['body'],
    ", connection: ", strtolower($r['headers']['connection'][0] ?? 'no Connection header'), "\n";
var_dump($c->closedWithin(3));

$res = $srv->stop(0);
workers_report_stop($res);
preg_match_all('~workerStop (\d+)~', $res['out'], $stops);
$stopped = array_map('intval', $stops[1]);
sort($stopped);
echo "workerStop ran in each worker: ", var_export($stopped === $workers, true), "\n";
echo "start() returned in the master only: ", substr_count($res['out'], "start() returned"), "\n";
echo "pid file: ", file_exists($srv->pidFile) ? "still there" : "removed", ", status socket: ",
    file_exists($srv->statusSocket) ? "still there" : "removed", "\n";
echo "worker processes alive: ", count(array_filter($workers, fn($p) => !workers_proc_exited($p))), "\n";
var_dump(@stream_socket_client("tcp://127.0.0.1:{$srv->port}", $errno, $errstr, 1));
?>
--EXPECT--
processes: 3
in-flight request: 200 completed by its worker, connection: close
bool(true)
exit: 0
leftover processes: none
workerStop ran in each worker: true
start() returned in the master only: 1
pid file: removed, status socket: removed
worker processes alive: 0
bool(false)
