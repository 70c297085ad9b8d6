--TEST--
HTTP: Response::write() streams a chunked body; each write is one chunk, sent before the handler ends
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->header("Content-Type", "text/plain");
    $res->write("first;");
    /* The client reads the first chunk and sends "go" on a second connection; we wait for it. */
    $res->write("second;");
    $res->write("");
    $res->end("last");
    try {
        $res->write("too late");
    } catch (Rapier\Exception $e) {
        fwrite(STDERR, $e->getMessage() . "\n");
    }
}');
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo $r['status'], ' ', $r['headers']['transfer-encoding'][0], ' ', isset($r['headers']['content-length']) ? 'has length' : 'no length', "\n";
echo json_encode($r['chunks']), "\n";
/* The connection is still usable after a chunked response. */
$c->send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
echo $c->response()['body'], "\n";
/* HTTP/1.0 has no chunked encoding: the body ends when the connection closes. */
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.0\r\n\r\n");
$raw = $c->readAll(3);
var_dump($c->eof, str_ends_with($raw, "\r\n\r\nfirst;second;last"), str_contains(strtolower($raw), 'transfer-encoding'));
$r = $srv->stop();
echo $r['code'], "\n", $r['err'];
?>
--EXPECT--
200 chunked no length
["first;","second;","last"]
first;second;last
bool(true)
bool(true)
bool(false)
0
Cannot write: the response has already ended
Cannot write: the response has already ended
Cannot write: the response has already ended
