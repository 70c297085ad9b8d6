--TEST--
HTTP: SIGTERM with a request in flight: the listener closes, the request completes, then the process exits 0
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    echo "handling\n";
    Rapier\Coroutine::sleep(0.5);
    $res->end("completed");
}', [], '', '$server->on("workerStop", function ($s, $id) { echo "workerStop\n"; });');
$idle = new HttpTestConn($srv->port);
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$srv->signal(15);
$r = $c->response(5);
echo $r['status'], ' ', $r['body'], ' ', strtolower($r['headers']['connection'][0] ?? 'no Connection header'), "\n";
var_dump($c->closedWithin(3));
/* An idle keep-alive connection is closed at once. */
var_dump($idle->closedWithin(3));
$res = $srv->stop(0);
echo "exit: {$res['code']}\n", $res['out'];
/* Nothing listens any more. */
var_dump(@stream_socket_client("tcp://127.0.0.1:{$srv->port}", $errno, $errstr, 1));
?>
--EXPECT--
200 completed close
bool(true)
bool(true)
exit: 0
ready
handling
workerStop
start() returned
bool(false)
