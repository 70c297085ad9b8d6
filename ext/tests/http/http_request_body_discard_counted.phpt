--TEST--
HTTP: stats() counts the bodies handlers left unread: unread_bodies_dropped when the rest was read and dropped and the connection served on, unread_bodies_closed when the connection closed for it (past max_body_discard, malformed, stalled)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$handler = 'function ($req, $res) use ($server) {
    if ($req->path === "/stats") {
        $s = $server->stats();
        $res->end("dropped {$s["unread_bodies_dropped"]}, closed {$s["unread_bodies_closed"]}\n");
        return;
    }
    $res->end("ignored\n");
}';
$srv = http_server_start($handler, ['request_buffering' => false, 'max_body_discard' => 10000, 'body_timeout' => 0.3]);
$port = $srv->port;
$stats = fn() => trim(http_get($port, '/stats')['body']);
$post = fn(string $length) => "POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: $length\r\n\r\nabc";
$chunked = "POST /ignore HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n";

echo "-- none yet: ", $stats(), "\n";

$c = new HttpTestConn($port);
$c->send($post('5003'));
echo $c->response()['status'], "\n";
$c->send(str_repeat('x', 5000) . "GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
echo $c->response(5)['status'], "\n";
$c->close();
echo "-- a rest within the bound, dropped: ", $stats(), "\n";

$c = new HttpTestConn($port);
$c->send($post('50003'));
echo $c->response()['status'], ", closed: ", var_export($c->closedWithin(5), true), "\n";
echo "-- a rest past the bound: ", $stats(), "\n";

$c = new HttpTestConn($port);
$c->send($chunked);
echo $c->response()['status'], "\n";
$c->send("zz\r\nnot a chunk\r\n");
$c->readAll(5);
echo "closed: ", var_export($c->eof, true), "\n";
echo "-- a malformed rest: ", $stats(), "\n";

$c = new HttpTestConn($port);
$c->send($post('5003'));
echo $c->response()['status'], "\n";
$c->readAll(5);
echo "closed: ", var_export($c->eof, true), "\n";
echo "-- a rest that stalled past body_timeout: ", $stats(), "\n";
http_report_stop($srv);
?>
--EXPECT--
-- none yet: dropped 0, closed 0
200
200
-- a rest within the bound, dropped: dropped 1, closed 0
200, closed: true
-- a rest past the bound: dropped 1, closed 1
200
closed: true
-- a malformed rest: dropped 1, closed 2
200
closed: true
-- a rest that stalled past body_timeout: dropped 1, closed 3
exit: 0
