--TEST--
HTTP: clients that leave mid-request or mid-response do not disturb the server; write() then returns false
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/stream") {
        for ($i = 0; $i < 1000; $i++) {
            if (!$res->write(str_repeat("y", 1 << 20))) {
                echo "stream: write returned false, writable=", var_export($res->isWritable(), true), "\n";
                return;
            }
        }
        echo "stream: all written\n";
        return;
    }
    if ($req->path === "/sleep") {
        Rapier\Coroutine::sleep(0.2);
        $res->end(str_repeat("z", 1 << 20));
        echo "sleep: handler done\n";
        return;
    }
    $res->end("ok");
}');
/* Gone while the handler sleeps. */
$c = new HttpTestConn($srv->port);
$c->send("GET /sleep HTTP/1.1\r\nHost: x\r\n\r\n");
$c->close();
var_dump($srv->waitFor("sleep: handler done", 3));
/* Gone in the middle of a streamed response. */
$c = new HttpTestConn($srv->port);
$c->send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
$c->readSome();
$c->close();
var_dump($srv->waitFor("stream:", 5));
/* Gone in the middle of the request itself (head and body). */
foreach (["GET / HTTP/1.1\r\nHo", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc"] as $partial) {
    $c = new HttpTestConn($srv->port);
    $c->send($partial);
    $c->close();
}
echo http_get($srv->port, '/')['body'], "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'], $r['err'];
?>
--EXPECT--
bool(true)
bool(true)
ok
exit: 0
ready
sleep: handler done
stream: write returned false, writable=false
start() returned
