--TEST--
HTTP: a workerStopping still running when the server has drained holds workerStop back until it returns; still running at shutdown_timeout, it is canceled (CanceledException, reported when it lets it out) with the handlers, then workerStop runs
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$handler = 'function ($req, $res) {
    echo "handling\n";
    try {
        Rapier\Coroutine::sleep(30);
    } catch (Rapier\CanceledException $e) {
        echo "handler canceled\n";
    }
}';
$stopping = <<<'PHP'
$server->on('workerStopping', function ($server, $id) {
    echo "workerStopping\n";
    try {
        Rapier\Coroutine::sleep(30);
    } finally {
        echo "workerStopping canceled\n";
    }
});
$server->on('workerStop', function ($server, $id) { echo "workerStop\n"; });
PHP;

/* Nothing in flight: the drain is done at once, and workerStop still waits for workerStopping. */
$srv = http_server_start($handler, ['shutdown_timeout' => 0.3], '', $stopping);
$t0 = microtime(true);
$res = $srv->stop(15);
$elapsed = microtime(true) - $t0;
echo "exit: {$res['code']}\n", $res['out'];
echo preg_replace('~ in /\S+:\d+\nStack trace:.*~s', ' ...', $res['err']), "\n";
/* Bounded by shutdown_timeout (0.3 s), not by the 30 s sleep. */
var_dump($elapsed < 5 || http_test_valgrind());

/* A handler in flight too: both are canceled at shutdown_timeout. */
$srv = http_server_start($handler, ['shutdown_timeout' => 0.3], '', $stopping);
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$res = $srv->stop(15);
var_dump($c->closedWithin(3));
echo "exit: {$res['code']}\n", $res['out'];
?>
--EXPECTF--
exit: 0
ready
workerStopping
workerStopping canceled
workerStop
start() returned
Rapier: uncaught exception in coroutine #%d: Rapier\CanceledException: %s ...
bool(true)
bool(true)
exit: 0
ready
handling
workerStopping
%s canceled
%s canceled
workerStop
start() returned
