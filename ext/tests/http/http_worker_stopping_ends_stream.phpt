--TEST--
HTTP: workerStopping runs as a graceful stop begins, while a streaming handler still waits: it closes the channel the handler waits on, the handler ends its response, and workerStop runs after it, long before shutdown_timeout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$code = <<<'PHP'
$events = new Rapier\Channel();
PHP;
/* An SSE-like stream: a first event, then whatever comes on $events until it closes. */
$handler = 'function ($req, $res) use ($events) {
    $res->header("Content-Type", "text/event-stream");
    $res->write("data: first\n\n");
    echo "streaming\n";
    while (($event = $events->pop()) !== false) {
        $res->write("data: $event\n\n");
    }
    echo "stream ended\n";
    $res->end("data: bye\n\n");
}';
$after = <<<'PHP'
$server->on('workerStopping', function ($server, $id) use ($events) {
    echo "workerStopping $id handling=", $server->stats()['handling'], " in a coroutine: ",
        var_export(Rapier\Coroutine::id() > 0, true), "\n";
    $events->close();
    echo "workerStopping returns\n";
});
$server->on('workerStop', function ($server, $id) {
    echo "workerStop $id handling=", $server->stats()['handling'], "\n";
});
PHP;
$srv = http_server_start($handler, ['shutdown_timeout' => 20], $code, $after);
$c = new HttpTestConn($srv->port);
$c->send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
if (!$srv->waitFor("streaming\n", 3)) {
    die("the request did not reach its handler\n");
}
$t0 = microtime(true);
$srv->signal(15);
$r = $c->response(15);
$elapsed = microtime(true) - $t0;
echo $r['status'], ' ', $r['headers']['content-type'][0], ' ', json_encode($r['body']), "\n";
var_dump($c->closedWithin(3));
$res = $srv->stop(0);
echo "exit: {$res['code']}\n", $res['out'];
echo trim($res['err']) === '' ? '' : "stderr:\n{$res['err']}\n";
/* Ended by workerStopping, not by shutdown_timeout's cancel 20 s on. */
var_dump($elapsed < 10);
?>
--EXPECT--
200 text/event-stream "data: first\n\ndata: bye\n\n"
bool(true)
exit: 0
ready
streaming
workerStopping 0 handling=1 in a coroutine: true
workerStopping returns
stream ended
workerStop 0 handling=0
start() returned
bool(true)
