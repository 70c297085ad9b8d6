--TEST--
HTTP/2: Response::onAbort() wakes the handler of a stream its client resets, before or after the head, and of each stream running when the client closes the connection; connection_aborted() turns 1 in those handlers only, and a stream answered whole on the same connection runs no callback
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/h2.inc';
$srv = http_server_start('function ($req, $res) {
    $name = $req->query["n"] ?? "";
    if ($req->path === "/wait") {
        if (isset($req->query["head"])) {
            $res->write("12345678");
        }
        $chan = new Rapier\Channel(1);
        $res->onAbort(fn () => $chan->close());
        echo "$name: waiting\n";
        $got = $chan->pop(30);
        echo "$name gone: pop() ", var_export($got, true), ", connection_aborted() ", connection_aborted(), "\n";
        return;
    }
    $res->onAbort(fn () => print("$name: callback run (wrong: answered whole)\n"));
    $res->end("hello " . $req->path);
    echo "$name answered: connection_aborted() ", connection_aborted(), "\n";
}', ['http2' => true]);

$c = new H2TestConn($srv->port);
$c->request(1, 'GET', '/wait?n=early');
$srv->waitFor('early: waiting', 5);
$c->send(h2_frame(H2_RST_STREAM, 0, 1, pack('N', 8)));
$srv->waitFor('early gone', 5);
$c->request(3, 'GET', '/wait?n=head&head=1');
$srv->waitFor('head: waiting', 5);
$c->send(h2_frame(H2_RST_STREAM, 0, 3, pack('N', 8)));
$srv->waitFor('head gone', 5);
$c->request(5, 'GET', '/same?n=same');
echo "same connection: ", h2_body($c->stream(5)), "\n";
$srv->waitFor('same answered', 5);

$c->request(7, 'GET', '/wait?n=closed-a');
$c->request(9, 'GET', '/wait?n=closed-b&head=1');
$srv->waitFor('closed-a: waiting', 5);
$srv->waitFor('closed-b: waiting', 5);
$c->close();
$srv->waitFor('closed-a gone', 5);
$srv->waitFor('closed-b gone', 5);

$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'];
$lines = array_filter(explode("\n", $r['out']), fn ($l) => str_contains($l, 'gone') || str_contains($l, 'answered')
    || str_contains($l, 'wrong'));
sort($lines);
echo implode("\n", $lines), "\n";
?>
--EXPECT--
same connection: hello /same
exit: 0
closed-a gone: pop() false, connection_aborted() 1
closed-b gone: pop() false, connection_aborted() 1
early gone: pop() false, connection_aborted() 1
head gone: pop() false, connection_aborted() 1
same answered: connection_aborted() 0
