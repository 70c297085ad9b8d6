--TEST--
HTTP: with concurrency 1, request handlers run one at a time (queued in arrival order)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    global $running, $max;
    $running++;
    $max = max($max, $running);
    Rapier\Coroutine::sleep(0.2);
    $running--;
    $res->end("max=$max");
}', ['concurrency' => 1], '$running = 0; $max = 0;');
$t0 = microtime(true);
$conns = [];
for ($i = 0; $i < 3; $i++) {
    $conns[$i] = new HttpTestConn($srv->port);
    $conns[$i]->send("GET /$i HTTP/1.1\r\nHost: x\r\n\r\n");
}
foreach ($conns as $i => $c) {
    echo "$i: ", $c->response(5)['body'], "\n";
}
$elapsed = microtime(true) - $t0;
var_dump($elapsed >= 0.55);
http_report_stop($srv);
?>
--EXPECT--
0: max=1
1: max=1
2: max=1
bool(true)
exit: 0
