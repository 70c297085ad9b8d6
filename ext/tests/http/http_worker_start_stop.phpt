--TEST--
HTTP: workerStart runs before the first request and workerStop after the last, both with the server and worker id 0
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$code = <<<'PHP'
function on_worker_start($server, $id) {
    global $log;
    $log[] = "start " . get_class($server) . " $id " . $server->workerId();
    echo "workerStart $id ", Rapier\Coroutine::id() > 0 ? "in a coroutine" : "outside", "\n";
}
$log = [];
PHP;
$after = <<<'PHP'
$server->on('workerStop', function ($server, $id) {
    global $log;
    echo "workerStop ", get_class($server), " $id requests=", $server->stats()['requests'], "\n";
});
PHP;
$srv = http_server_start('function ($req, $res) { global $log; $log[] = "request"; $res->end(implode(",", $log)); }', [], $code, $after);
echo http_get($srv->port, '/')['body'], "\n";
echo http_get($srv->port, '/')['body'], "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'];
?>
--EXPECT--
start Rapier\Http\Server 0 0,request
start Rapier\Http\Server 0 0,request,request
exit: 0
workerStart 0 in a coroutine
ready
workerStop Rapier\Http\Server 0 requests=2
start() returned
