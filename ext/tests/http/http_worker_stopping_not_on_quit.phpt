--TEST--
HTTP: SIGQUIT stops at once without workerStopping (what runs is canceled, not asked to finish); SIGQUIT after SIGTERM cancels a workerStopping still running; workerStop runs either way
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
$after = <<<'PHP'
$server->on('workerStopping', function ($server, $id) {
    echo "workerStopping\n";
    try {
        Rapier\Coroutine::sleep(30);
    } catch (Rapier\CanceledException $e) {
        echo "workerStopping canceled\n";
    }
});
$server->on('workerStop', function ($server, $id) { echo "workerStop\n"; });
PHP;

echo "-- SIGQUIT\n";
$srv = http_server_start($handler, ['shutdown_timeout' => 20], '', $after);
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$res = $srv->stop(3);
var_dump($c->closedWithin(3));
echo "exit: {$res['code']}\n", $res['out'], $res['err'];

echo "-- SIGTERM, then SIGQUIT\n";
$srv = http_server_start($handler, ['shutdown_timeout' => 20], '', $after);
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$srv->signal(15);
$srv->waitFor("workerStopping\n", 3);
$res = $srv->stop(3);
var_dump($c->closedWithin(3));
echo "exit: {$res['code']}\n", $res['out'], $res['err'];
?>
--EXPECTF--
-- SIGQUIT
bool(true)
exit: 0
ready
handling
handler canceled
workerStop
start() returned
-- SIGTERM, then SIGQUIT
bool(true)
exit: 0
ready
handling
workerStopping
%s canceled
%s canceled
workerStop
start() returned
