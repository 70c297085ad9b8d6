--TEST--
HTTP: an exception workerStopping lets out is reported as an uncaught coroutine exception, and the stop goes on: the request in flight completes, workerStop runs, start() returns (stop begun by Server::shutdown())
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$handler = 'function ($req, $res) use ($server) {
    if ($req->path === "/stop") {
        $server->shutdown();
        $res->end("stopping");
        return;
    }
    echo "handling\n";
    Rapier\Coroutine::sleep(0.3);
    $res->end("completed");
}';
$after = <<<'PHP'
$server->on('workerStopping', function ($server, $id) {
    echo "workerStopping $id\n";
    throw new RuntimeException("workerStopping failed");
});
$server->on('workerStop', function ($server, $id) { echo "workerStop $id\n"; });
PHP;
$srv = http_server_start($handler, ['shutdown_timeout' => 20], '', $after);
$c = new HttpTestConn($srv->port);
$c->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$r = http_get($srv->port, '/stop');
echo "/stop: {$r['status']} {$r['body']}\n";
$r = $c->response(5);
echo "in flight: {$r['status']} {$r['body']}\n";
$res = $srv->stop(0);
echo "exit: {$res['code']}\n", $res['out'], $res['err'];
?>
--EXPECTF--
/stop: 200 stopping
in flight: 200 completed
exit: 0
ready
handling
workerStopping 0
workerStop 0
start() returned
Rapier: uncaught exception in coroutine #%d: RuntimeException: workerStopping failed in %s:%d
Stack trace:
#0 [internal function]: {closure}(Object(Rapier\Http\Server), 0)
%A
