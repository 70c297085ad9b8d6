--TEST--
HTTP: a handler waiting in write() for a client that does not read wakes with false as soon as the client closes or half-closes (not after write_timeout); a coroutine queued behind it gets false too; other requests are served meanwhile
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/hello") {
        $res->end("hello");
        return;
    }
    $name = $req->query["n"];
    $res->write("first\n");
    $wg = new Rapier\WaitGroup();
    $wg->add();
    $queued = null;
    Rapier\go(function () use ($res, $wg, &$queued) {
        /* Behind the handler\'s write, for its turn. */
        Rapier\Coroutine::sleep(0.05);
        $queued = $res->write("queued\n");
        $wg->done();
    });
    echo "$name: writing\n";
    $t = microtime(true);
    /* Far more than the socket buffers take: the write waits for the client. */
    $ok = $res->write(str_repeat("x", 64 << 20));
    $wg->wait();
    echo "$name: write() ", var_export($ok, true), ", queued write() ", var_export($queued, true),
        microtime(true) - $t < 20 ? " before write_timeout" : " after write_timeout", ", isWritable() ",
        var_export($res->isWritable(), true), "\n";
}', ['write_timeout' => 30]);

foreach (['half' => fn ($c) => stream_socket_shutdown($c->sock, STREAM_SHUT_WR), 'close' => fn ($c) => $c->close()]
        as $name => $leave) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET /big?n=$name HTTP/1.1\r\nHost: x\r\n\r\n");
    $srv->waitFor("$name: writing", 5);
    /* The writer is waiting now, or will find its client gone when it does: the outcome is the same. */
    usleep(200000);
    echo "meanwhile: ", http_get($srv->port, '/hello')['body'], "\n";
    $leave($c);
    $srv->waitFor("$name: write()", 30);
    $c->close();
}
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'], $r['err'];
?>
--EXPECT--
meanwhile: hello
meanwhile: hello
exit: 0
ready
half: writing
half: write() false, queued write() false before write_timeout, isWritable() false
close: writing
close: write() false, queued write() false before write_timeout, isWritable() false
start() returned
