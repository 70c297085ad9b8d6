--TEST--
HTTP: a handler that waits (sleep) does not block other requests: two concurrent handlers are asleep at once
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * Each handler of a pair sleeps, in 10 ms slices, until both are asleep at
 * once: a sleep that blocked the worker would keep the other request out,
 * and the first would give up after 3000 slices (30 s) having seen only one.
 */
$srv = http_server_start('function ($req, $res) {
    global $asleep;
    $asleep[$req->path] = ($asleep[$req->path] ?? 0) + 1;
    for ($i = 0; $i < 3000 && $asleep[$req->path] < 2; $i++) {
        if ($req->path === "/usleep") {
            usleep(10000);
        } else {
            Rapier\Coroutine::sleep(0.01);
        }
    }
    $res->end("asleep at once: " . $asleep[$req->path]);
}', [], '$asleep = [];');
foreach (['/sleep', '/usleep'] as $path) {
    $a = new HttpTestConn($srv->port);
    $b = new HttpTestConn($srv->port);
    $a->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $b->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $ra = $a->response(60);
    $rb = $b->response(60);
    echo "$path: ", $ra['body'] ?? 'no answer', ", ", $rb['body'] ?? 'no answer', "\n";
}
http_report_stop($srv);
?>
--EXPECT--
/sleep: asleep at once: 2, asleep at once: 2
/usleep: asleep at once: 2, asleep at once: 2
exit: 0
