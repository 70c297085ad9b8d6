--TEST--
HTTP/2: a stream its client resets, or whose connection it closes, while the handler runs is logged once, as on HTTP/1.1: 499 0 when no head went out (the handler's later end() returns false and adds no line), else the status sent with the body bytes that went out; the other streams and the next connection are served
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/h2.inc';
$log = tempnam(sys_get_temp_dir(), 'h2log');
$srv = http_server_start('function ($req, $res) {
    $name = $req->query["n"] ?? "";
    if ($req->path === "/wait") {
        if (isset($req->query["head"])) {
            $res->write("12345678");
        }
        echo "$name: waiting\n";
        $chan = new Rapier\Channel(1);
        $deadline = microtime(true) + 20;
        while ($res->isWritable() && microtime(true) < $deadline) {
            $chan->pop(0.1);
        }
        echo "$name gone: ", $res->isWritable() ? "still writable after 20 s" : "isWritable() false",
            ", end() ", var_export($res->end("late"), true), "\n";
        return;
    }
    $res->end("hello " . $req->path);
}', ['http2' => true, 'access_log' => $log]);

/* A reset before the head, and one after it, on one connection that goes on. */
$c = new H2TestConn($srv->port);
$c->request(1, 'GET', '/wait?n=early');
$srv->waitFor('early: waiting', 5);
$c->send(h2_frame(H2_RST_STREAM, 0, 1, pack('N', 8)));
$srv->waitFor('early gone', 5);
$c->request(3, 'GET', '/wait?n=head&head=1');
$srv->waitFor('head: waiting', 5);
$c->send(h2_frame(H2_RST_STREAM, 0, 3, pack('N', 8)));
$srv->waitFor('head gone', 5);
$c->request(5, 'GET', '/same');
echo "same connection: ", h2_body($c->stream(5)), "\n";

/* The connection closed under two running handlers, one with its head out. */
$c->request(7, 'GET', '/wait?n=closed');
$c->request(9, 'GET', '/wait?n=closed-head&head=1');
$srv->waitFor('closed: waiting', 5);
$srv->waitFor('closed-head: waiting', 5);
$c->close();
$srv->waitFor('closed gone', 5);
$srv->waitFor('closed-head gone', 5);

[$rc, $out] = h2_curl($srv->port, '/next');
echo "next connection: $out\n";

/* The access log is flushed every 0.2 s. */
$lines = static fn (): array => preg_match_all('#"GET (\S+) HTTP/2\.0" (\d+ \d+)$#m', (string) file_get_contents($log), $m,
    PREG_SET_ORDER) ? array_map(fn ($x) => "$x[1] $x[2]", $m) : [];
http_test_poll(fn () => count($lines()) >= 6);
usleep(300000);
$got = $lines();
sort($got);
echo implode("\n", $got), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
unlink($log);
?>
--EXPECT--
same connection: hello /same
next connection: hello /next
/next 200 11
/same 200 11
/wait?n=closed 499 0
/wait?n=closed-head&head=1 200 8
/wait?n=early 499 0
/wait?n=head&head=1 200 8
exit: 0
