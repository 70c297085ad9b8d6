--TEST--
HTTP: requests pipelined behind a streamed response (sent with it, or arriving while it streams and waits) are answered in order on the same connection, which stays open for more; the watch for the client leaving reads none of their bytes
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    global $gate;
    switch ($req->path) {
        case "/stream":
            foreach (["a", "b", "c"] as $part) {
                $res->write($part);
            }
            $res->end("d");
            return;
        case "/gated":
            /* Streams, then waits for /release while the next request arrives behind it. */
            $res->write("one");
            echo "gated: waiting\n";
            $released = $gate->pop(10);
            echo "gated: released, isWritable() ", var_export($res->isWritable(), true), "\n";
            $res->write($released === null ? "not released" : "two");
            $res->end();
            return;
        case "/release":
            $gate->push(true);
            $res->end("released");
            return;
    }
    $res->end("hello " . $req->path);
}', [], '$gate = new Rapier\Channel(1);');

$get = static fn (string $path): string => "GET $path HTTP/1.1\r\nHost: x\r\n\r\n";
$show = static fn (?array $r): string => $r === null ? 'none' : "{$r['status']} " . json_encode($r['chunks'] ?? $r['body']);

echo "-- sent together\n";
$c = new HttpTestConn($srv->port);
$c->send($get('/stream') . $get('/p1') . $get('/stream') . $get('/p2'));
for ($i = 0; $i < 4; $i++) {
    echo $show($c->response(5)), "\n";
}
$c->send($get('/after'));
echo $show($c->response(5)), "\n";
$c->close();

echo "-- arriving while the stream waits\n";
$c = new HttpTestConn($srv->port);
$c->send($get('/gated'));
$srv->waitFor("gated: waiting", 5);
$first = $c->readSome(5);
echo "first chunk came: ", var_export(str_contains($first, "one"), true), "\n";
$c->buf = $first;
$c->send($get('/p3') . $get('/p4'));
/* Gives the worker the time to see those bytes arrive; answered the same whether it has or not. */
usleep(100000);
echo "release: ", http_get($srv->port, '/release')['body'], "\n";
for ($i = 0; $i < 3; $i++) {
    echo $show($c->response(5)), "\n";
}
$c->send($get('/after'));
echo $show($c->response(5)), "\n";
$c->close();

echo "-- the same, the client leaving after the pipelined request came\n";
$c = new HttpTestConn($srv->port);
$c->send($get('/gated'));
$srv->waitFor("gated: waiting", 5);
$c->readSome(5);
$c->send($get('/p5'));
usleep(100000);
$c->close();
echo "release: ", http_get($srv->port, '/release')['body'], "\n";
echo "next: ", http_get($srv->port, '/p6')['body'], "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'], $r['err'];
?>
--EXPECT--
-- sent together
200 ["a","b","c","d"]
200 "hello \/p1"
200 ["a","b","c","d"]
200 "hello \/p2"
200 "hello \/after"
-- arriving while the stream waits
first chunk came: true
release: released
200 ["one","two"]
200 "hello \/p3"
200 "hello \/p4"
200 "hello \/after"
-- the same, the client leaving after the pipelined request came
release: released
next: hello /p6
exit: 0
ready
gated: waiting
gated: released, isWritable() true
gated: waiting
gated: released, isWritable() false
start() returned
