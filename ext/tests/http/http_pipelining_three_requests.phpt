--TEST--
HTTP: three pipelined requests in one write get three responses in order
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/* The first handler is the slowest: responses must still come back in request order. */
$srv = http_server_start('function ($req, $res) {
    $n = (int) substr($req->path, 1);
    Rapier\Coroutine::sleep((4 - $n) * 0.02);
    $res->end("response $n body " . $req->body());
}');
$c = new HttpTestConn($srv->port);
$c->send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"
    . "POST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
    . "GET /3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
for ($i = 0; $i < 3; $i++) {
    $r = $c->response();
    echo $r ? "{$r['status']} {$r['body']}\n" : "no response\n";
}
var_dump($c->closedWithin(2));
http_report_stop($srv);
?>
--EXPECT--
200 response 1 body 
200 response 2 body hello
200 response 3 body 
bool(true)
exit: 0
