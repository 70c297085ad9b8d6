--TEST--
HTTP: REQUEST_TIME_FLOAT is when the request's first byte arrived, the same at every server() call
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $first = $req->server();
    usleep(20000);
    $again = $req->server();
    $res->json([$first["REQUEST_TIME_FLOAT"], $again["REQUEST_TIME_FLOAT"], $first["REQUEST_TIME"], microtime(true)]);
}');
$c = new HttpTestConn($srv->port);
// The head now, the body 500 ms later: the request starts with its head, not when the handler runs.
$sent = microtime(true);
$c->send("POST /t HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n");
usleep(500000);
$c->send("ok");
[$first, $again, $seconds, $handled] = json_decode($c->response()['body'], true);
var_dump($first === $again, $seconds === (int) $first);
// Both clocks are this machine's; the margins absorb scheduling (and valgrind's slowness):
// the start is the head's arrival, well before the body was sent.
var_dump($first >= $sent - 0.01 && $first < $sent + 0.4);
var_dump($handled - $first >= 0.1);
http_report_stop($srv);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
exit: 0
