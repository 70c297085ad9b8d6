--TEST--
HTTP: Server::shutdown() from a handler stops a single-process server gracefully (a request in flight completes, start() returns); reload() there, and both before start() and after it returned, throw Rapier\Exception
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$s = new Rapier\Http\Server('127.0.0.1', 0);
foreach (['shutdown', 'reload'] as $method) {
    try {
        $s->$method();
    } catch (Rapier\Exception $e) {
        echo "before start(): ", $e->getMessage(), "\n";
    }
}
$handler = 'function ($req, $res) use ($server) {
    switch ($req->path) {
        case "/slow":
            echo "slow request\n";
            Rapier\Coroutine::sleep(0.5);
            $res->end("slow request completed");
            break;
        case "/reload":
            try {
                $server->reload();
            } catch (Rapier\Exception $e) {
                $res->end(get_class($e) . ": " . $e->getMessage());
            }
            break;
        case "/stop":
            $server->shutdown();
            $server->shutdown();
            $res->end("stopping");
            break;
    }
}';
$after = '$server->on("workerStop", function () { echo "workerStop\n"; });
register_shutdown_function(function () use ($server) {
    try {
        $server->shutdown();
    } catch (Rapier\Exception $e) {
        echo "after start(): ", $e->getMessage(), "\n";
    }
});';
$srv = http_server_start($handler, [], '', $after);
echo http_get($srv->port, '/reload')['body'], "\n";
$c = new HttpTestConn($srv->port);
$c->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->waitFor("slow request\n", 3)) {
    die("the slow request did not reach its handler\n");
}
$r = http_get($srv->port, '/stop');
echo "/stop: {$r['status']} {$r['body']}, connection: ", $r['headers']['connection'][0] ?? '(none)', "\n";
$r = $c->response(5);
echo "in-flight request: {$r['status']} {$r['body']}\n";
$res = $srv->stop(0);
echo $res['out'];
echo "exit: {$res['code']}\n", trim($res['err']) === '' ? '' : "stderr:\n{$res['err']}\n";
?>
--EXPECT--
before start(): Cannot shut down the server: it is not running in this process (call it from the server's callbacks once start() has begun; a stopped server stays stopped)
before start(): Cannot reload the server: it is not running in this process (call it from the server's callbacks once start() has begun; a stopped server stays stopped)
Rapier\Exception: Cannot reload a server that runs in one process ("workers" is 0): there are no workers to replace; restart the process, or set "workers" to 1 or more
/stop: 200 stopping, connection: close
in-flight request: 200 slow request completed
ready
slow request
workerStop
start() returned
after start(): Cannot shut down the server: it is not running in this process (call it from the server's callbacks once start() has begun; a stopped server stays stopped)
exit: 0
