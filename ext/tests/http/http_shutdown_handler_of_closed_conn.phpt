--TEST--
HTTP: a handler still running after its client went away counts for a graceful stop: workerStop waits for it, and shutdown_timeout cancels it
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $chunk = str_repeat("y", 65536);
    for ($i = 0; $i < 2000 && $res->write($chunk); $i++) {
    }
    echo "write failed: the client is gone\n";
    try {
        Rapier\Coroutine::sleep(10);
        echo "slept\n";
    } catch (Rapier\CanceledException $e) {
        echo "canceled\n";
    }
}', ['shutdown_timeout' => 0.5], '',
    '$server->on("workerStop", function ($server) { echo "workerStop, handling ", $server->stats()["handling"], "\n"; });');
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
usleep(200000);
// Unread data: closing resets the connection, and the handler's next write fails.
$c->close();
$srv->waitFor("write failed", 5);
$t0 = microtime(true);
$srv->signal(SIGTERM);
$r = $srv->stop(0, 10);
$elapsed = microtime(true) - $t0;
echo "exit: {$r['code']}\n", $r['out'];
/* Bounded by shutdown_timeout (0.5 s), not by the handler's 10 s sleep. */
var_dump($elapsed < 3 || http_test_valgrind());
?>
--EXPECT--
exit: 0
ready
write failed: the client is gone
canceled
workerStop, handling 0
start() returned
bool(true)
