--TEST--
HTTPS: a handler notices its client leaving (close, half-close) while it waits, before its answer or between writes, and a handler waiting in write() wakes with false; a request pipelined while a response streams waits unread and is answered after it; the next connection is served
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$f = tls_test_files();
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
$srv = http_server_start('function ($req, $res) {
    global $gate;
    $name = $req->query["n"] ?? "";
    switch ($req->path) {
        case "/sse":
            $res->write("data: first\n\n");
            echo "$name: first sent\n";
            $deadline = microtime(true) + 20;
            while ($res->isWritable() && microtime(true) < $deadline) {
                $gate->pop(0.2);
            }
            echo "$name: ", $res->isWritable() ? "still writable after 20 s" : "isWritable() false",
                ", write() ", var_export($res->write("late"), true), "\n";
            return;
        case "/big":
            $res->write("first\n");
            echo "$name: writing\n";
            $t = microtime(true);
            $ok = $res->write(str_repeat("x", 64 << 20));
            echo "$name: write() ", var_export($ok, true), microtime(true) - $t < 20 ? " before" : " after",
                " write_timeout\n";
            return;
        case "/poll":
            echo "$name: polling\n";
            $deadline = microtime(true) + 20;
            while ($res->isWritable() && microtime(true) < $deadline) {
                $gate->pop(0.2);
            }
            echo "$name: ", $res->isWritable() ? "still writable after 20 s" : "isWritable() false",
                ", end() ", var_export($res->end("late"), true), "\n";
            return;
        case "/gated":
            $res->write("one");
            echo "gated: waiting\n";
            $released = $gate->pop(10);
            $res->end($released === null ? "not released" : "two");
            return;
        case "/release":
            $gate->push(true);
            $res->end("released");
            return;
    }
    $res->end("hello " . $req->path);
}', tls_test_options(['write_timeout' => 30, 'access_log' => $log]), '$gate = new Rapier\Channel(1);');

$get = static fn (string $target): string => "GET $target HTTP/1.1\r\nHost: x\r\n\r\n";

foreach (['close' => fn ($c) => $c->close(), 'half' => fn ($c) => stream_socket_shutdown($c->sock, STREAM_SHUT_WR)]
        as $name => $leave) {
    $c = new HttpTestConn($srv->port, $f['cert']);
    $c->send($get("/sse?n=$name"));
    $srv->waitFor("$name: first sent", 5);
    $got = '';
    $deadline = microtime(true) + http_test_timeout(5);
    while (!str_contains($got, "data: first\n\n") && !$c->eof && microtime(true) < $deadline) {
        $got .= $c->readSome(5);
    }
    $leave($c);
    $srv->waitFor("$name: isWritable", 30) || $srv->waitFor("$name: still", 30);
    $c->close();

    $c = new HttpTestConn($srv->port, $f['cert']);
    $c->send($get("/big?n=big-$name"));
    $srv->waitFor("big-$name: writing", 5);
    usleep(200000);   /* the writer waits for the client, or finds it gone when it does */
    $leave($c);
    $srv->waitFor("big-$name: write()", 30);
    $c->close();

    /* Before any head: a long poll. */
    $c = new HttpTestConn($srv->port, $f['cert']);
    $c->send($get("/poll?n=poll-$name"));
    $srv->waitFor("poll-$name: polling", 5);
    $leave($c);
    $srv->waitFor("poll-$name: isWritable", 30) || $srv->waitFor("poll-$name: still", 30);
    $c->close();
}

$c = new HttpTestConn($srv->port, $f['cert']);
$c->send($get('/gated'));
$srv->waitFor("gated: waiting", 5);
$c->buf = $c->readSome(5);
$c->send($get('/p1'));
usleep(100000);   /* its record arrives while the stream waits; answered the same either way */
echo "release: ", json_encode(tls_curl($srv->port, '/release')[1]), "\n";
foreach ([0, 1] as $i) {
    $r = $c->response(5);
    echo $r['status'], ' ', json_encode($r['chunks'] ?? $r['body']), "\n";
}
$c->close();

[$rc, $out] = tls_curl($srv->port, '/next');
echo "next connection: $out\n";
/* Cut short after their heads: logged with the status sent and the body bytes that went out, as nginx does; 499 before. */
$cut = static fn (): array => preg_match_all('#"GET (/(?:sse|big|poll)\S+) HTTP/1\.1" (\d+) (\d+)$#m',
    (string) file_get_contents($log), $m, PREG_SET_ORDER) ? $m : [];
http_test_poll(fn () => count($cut()) >= 6);
foreach ($cut() as [, $target, $status, $bytes]) {
    echo "$status $target $bytes\n";
}
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'], $r['err'];
unlink($log);
?>
--EXPECT--
release: "released"
200 ["one","two"]
200 "hello \/p1"
next connection: hello /next
200 /sse?n=close 13
200 /big?n=big-close 6
499 /poll?n=poll-close 0
200 /sse?n=half 13
200 /big?n=big-half 6
499 /poll?n=poll-half 0
exit: 0
ready
close: first sent
close: isWritable() false, write() false
big-close: writing
big-close: write() false before write_timeout
poll-close: polling
poll-close: isWritable() false, end() false
half: first sent
half: isWritable() false, write() false
big-half: writing
big-half: write() false before write_timeout
poll-half: polling
poll-half: isWritable() false, end() false
gated: waiting
start() returned
