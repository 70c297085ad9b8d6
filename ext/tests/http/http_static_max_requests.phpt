--TEST--
HTTP: static files count towards max_requests: the answer that reaches it closes the connection and the worker retires without any request reaching PHP
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->end("handler"); }',
    ['document_root' => "$root/pub", 'max_requests' => 3], '',
    '$server->on("workerStop", function ($server) { echo "workerStop after ", $server->stats()["requests"], " requests\n"; });');
$c = new HttpTestConn($srv->port);
for ($i = 1; $i <= 3; $i++) {
    $c->send("GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $c->response();
    echo "$i: {$r['status']} ", $r['headers']['connection'][0] ?? 'keep-alive', "\n";
}
var_dump($c->closedWithin(3));
/* No signal: the process ends by itself. */
$r = $srv->stop(0);
echo "exit: {$r['code']}\n", $r['out'];
?>
--EXPECT--
1: 200 keep-alive
2: 200 keep-alive
3: 200 close
bool(true)
exit: 0
ready
workerStop after 3 requests
start() returned
