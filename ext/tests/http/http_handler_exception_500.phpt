--TEST--
HTTP: an exception in the handler answers 500 without the trace, is logged, and the server keeps serving
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/boom") {
        throw new RuntimeException("secret detail");
    }
    if ($req->path === "/after-write") {
        $res->write("partial");
        throw new LogicException("mid-stream");
    }
    $res->end("fine");
}');
$c = new HttpTestConn($srv->port);
$c->send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo $r['status'], ' ', trim($r['body']), str_contains($r['body'], 'secret') ? ' LEAKED' : '', "\n";
/* The request was read whole and the 500 is complete: the connection goes on. */
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo $c->response()['body'], "\n";
/* Thrown after the head went out: the response is cut short (the client must not take it as complete). */
$c = new HttpTestConn($srv->port);
$c->send("GET /after-write HTTP/1.1\r\nHost: x\r\n\r\n");
var_dump($c->response());
var_dump($c->eof);
echo http_get($srv->port, '/')['body'], "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
preg_match_all('~^(\w+): (.*) in /~m', $r['err'], $m, PREG_SET_ORDER);
foreach ($m as $e) {
    echo "logged: $e[1]: $e[2]\n";
}
?>
--EXPECT--
500 500 Internal Server Error
fine
NULL
bool(true)
fine
exit: 0
logged: RuntimeException: secret detail
logged: LogicException: mid-stream
