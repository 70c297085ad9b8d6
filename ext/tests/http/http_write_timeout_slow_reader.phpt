--TEST--
HTTP: a client that stops reading is cut off after write_timeout; the waiting handler does not block other requests
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/big") {
        echo "big: start\n";
        $ok = $res->end(str_repeat("x", 64 << 20));
        echo "big: end returned ", var_export($ok, true), "\n";
        return;
    }
    $res->end("ok");
}', ['write_timeout' => 0.5]);
$c = new HttpTestConn($srv->port);
$c->send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("big: start", 3);
/* The handler is stuck writing to a client that does not read: others are still served. */
echo http_get($srv->port, '/')['body'], "\n";
var_dump($srv->waitFor("big: end", 5));
/* The server closed the connection (the client sees the end after draining what was sent). */
var_dump($c->closedWithin(5));
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'];
?>
--EXPECT--
ok
bool(true)
bool(true)
exit: 0
ready
big: start
big: end returned false
start() returned
