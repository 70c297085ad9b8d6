--TEST--
HTTP: a handler that waits (sleep) does not block other requests: two concurrent 0.5 s requests take about 0.5 s
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/usleep") {
        usleep(500000);
    } else {
        Rapier\Coroutine::sleep(0.5);
    }
    $res->end("slept");
}');
foreach (['/sleep', '/usleep'] as $path) {
    $t0 = microtime(true);
    $a = new HttpTestConn($srv->port);
    $b = new HttpTestConn($srv->port);
    $a->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $b->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $ra = $a->response(5);
    $rb = $b->response(5);
    $elapsed = microtime(true) - $t0;
    /* Serialised would be >= 1.0 s; concurrent is about 0.5 s. */
    echo "$path: {$ra['body']} {$rb['body']} ", $elapsed < 0.9 || http_test_valgrind() ? 'concurrent' : "took $elapsed s", "\n";
}
http_report_stop($srv);
?>
--EXPECT--
/sleep: slept slept concurrent
/usleep: slept slept concurrent
exit: 0
