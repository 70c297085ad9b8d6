--TEST--
HTTP: Response::isWritable() is true until the response ends, and false once the client has gone
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/gone") {
        /* Wait until the client has closed, then try to write. */
        for ($i = 0; $i < 200 && $res->isWritable(); $i++) {
            $ok = @$res->write(str_repeat("x", 65536));
            if (!$ok) {
                break;
            }
            Rapier\Coroutine::sleep(0.01);
        }
        echo "gone: writable=", var_export($res->isWritable(), true), "\n";
        return;
    }
    $a = $res->isWritable();
    $res->write("part");
    $b = $res->isWritable();
    $res->end();
    echo "normal: ", var_export([$a, $b, $res->isWritable()], true), "\n";
}');
$r = http_get($srv->port, '/');
echo $r['body'], "\n";
$srv->waitFor("normal", 3);
$c = new HttpTestConn($srv->port);
$c->send("GET /gone HTTP/1.1\r\nHost: x\r\n\r\n");
$c->close();
$srv->waitFor("gone:", 5);
$r = $srv->stop();
echo $r['out'], "exit: ", $r['code'], "\n";
?>
--EXPECT--
part
ready
normal: array (
  0 => true,
  1 => true,
  2 => false,
)
gone: writable=false
start() returned
exit: 0
