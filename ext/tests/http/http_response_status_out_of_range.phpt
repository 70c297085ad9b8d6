--TEST--
HTTP: Response::status() and json() refuse statuses outside 200..599 (a final 1xx would desynchronise the client)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $s = (int) $req->query["s"];
    try {
        $req->query["json"] ?? false ? $res->json([], $s) : $res->status($s)->end("final");
    } catch (ValueError $e) {
        $res->status(400)->end($e->getMessage());
    }
}');
$c = new HttpTestConn($srv->port);
foreach (['s=103', 's=100', 's=199', 's=99', 's=600', 's=101&json=1', 's=600&json=1'] as $q) {
    $c->send("GET /?$q HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $c->response();
    echo "$q => {$r['status']} {$r['body']}\n";
}
/* The connection is still in step: the next answer is the next request's. */
$c->send("GET /?s=200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$r = $c->response();
echo "then => {$r['status']} {$r['body']}\n";
http_report_stop($srv);
?>
--EXPECT--
s=103 => 400 Rapier\Http\Response::status(): Argument #1 ($status) must be between 200 and 599
s=100 => 400 Rapier\Http\Response::status(): Argument #1 ($status) must be between 200 and 599
s=199 => 400 Rapier\Http\Response::status(): Argument #1 ($status) must be between 200 and 599
s=99 => 400 Rapier\Http\Response::status(): Argument #1 ($status) must be between 200 and 599
s=600 => 400 Rapier\Http\Response::status(): Argument #1 ($status) must be between 200 and 599
s=101&json=1 => 400 Rapier\Http\Response::json(): Argument #2 ($status) must be between 200 and 599
s=600&json=1 => 400 Rapier\Http\Response::json(): Argument #2 ($status) must be between 200 and 599
then => 200 final
exit: 0
