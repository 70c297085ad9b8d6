--TEST--
HTTP: a handler still running at shutdown_timeout is canceled, its client cut off, and the process exits
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    echo "handling\n";
    try {
        Rapier\Coroutine::sleep(2.5);
    } catch (Rapier\CanceledException $e) {
        echo "canceled\n";
        return;
    }
    $res->end("too late");
}', ['shutdown_timeout' => 0.3]);
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$t0 = microtime(true);
$srv->signal(15);
var_dump($c->response(3));
var_dump($c->eof);
$r = $srv->stop(0);
$elapsed = microtime(true) - $t0;
echo "exit: {$r['code']}\n", $r['out'];
/* Bounded by shutdown_timeout (0.3 s), not by the handler's 2.5 s sleep. */
var_dump($elapsed < 1.5 || http_test_valgrind());
?>
--EXPECT--
NULL
bool(true)
exit: 0
ready
handling
canceled
start() returned
bool(true)
