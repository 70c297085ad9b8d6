--TEST--
HTTP: a handler sees its client leave before it answers (a long poll: close, half-close, HTTP/1.0): isWritable() turns false while it waits, end() and json() return false, and the access log has one line, 499 0; a request pipelined or sent after the response while the handler runs on is no leaving and is answered; a handler failing after its head is logged with the status sent and its bytes
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
/*
 * /poll waits for an event nobody pushes, checking isWritable() every
 * 0.2 s for 20 s at most: without a watch for its client leaving it would
 * stay writable all that time. /late does not check: it answers after 1 s.
 */
$srv = http_server_start('function ($req, $res) {
    global $server;
    $name = $req->query["n"] ?? "";
    switch ($req->path) {
        case "/poll":
            echo "$name: waiting\n";
            $chan = new Rapier\Channel(1);
            $deadline = microtime(true) + 20;
            while ($res->isWritable() && microtime(true) < $deadline) {
                $chan->pop(0.2);
            }
            echo "$name gone: ", $res->isWritable() ? "still writable after 20 s" : "isWritable() false",
                ", end() ", var_export($res->end("late"), true), "\n";
            return;
        case "/late":
            echo "late: waiting\n";
            Rapier\Coroutine::sleep(1);
            echo "late gone: json() ", var_export($res->json(["late" => true]), true), "\n";
            return;
        case "/slow":
            Rapier\Coroutine::sleep(0.3);
            $res->end("slow done");
            return;
        case "/after":
            $res->end("answered");
            Rapier\Coroutine::sleep(0.3);   /* work after the response, as a framework\'s terminate() */
            echo "after: done\n";
            return;
        case "/fail":
            $res->write("part");
            Rapier\Coroutine::sleep(0.1);
            throw new RuntimeException("failed midway");
        case "/stats":
            $res->end("requests " . $server->stats()["requests"]);
            return;
    }
    $res->end("hello " . $req->path);
}', ['access_log' => $log]);

/* Sends $request, waits until its handler runs, then leaves as $leave does, and waits for the handler to be done. */
function leave(HttpTestServer $srv, string $name, string $request, callable $leave): void
{
    $c = new HttpTestConn($srv->port);
    $c->send($request);
    $srv->waitFor("$name: waiting", 5);
    $leave($c);
    $srv->waitFor("$name gone", 30);
    $c->close();
}

$close = fn (HttpTestConn $c) => $c->close();
$halfClose = fn (HttpTestConn $c) => stream_socket_shutdown($c->sock, STREAM_SHUT_WR);
leave($srv, 'close', "GET /poll?n=close HTTP/1.1\r\nHost: x\r\n\r\n", $close);
leave($srv, 'half', "GET /poll?n=half HTTP/1.1\r\nHost: x\r\n\r\n", $halfClose);
leave($srv, 'http10', "GET /poll?n=http10 HTTP/1.0\r\n\r\n", $close);
leave($srv, 'late', "GET /late HTTP/1.1\r\nHost: x\r\n\r\n", $close);

/* Not leaving: a request pipelined while the handler runs, and the next one sent while it works on after its answer. */
$c = new HttpTestConn($srv->port);
$c->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
usleep(100000);
$c->send("GET /p2 HTTP/1.1\r\nHost: x\r\n\r\n");
foreach ([1, 2] as $i) {
    $r = $c->response(5);
    echo "pipelined $i: {$r['status']} {$r['body']}\n";
}
$c->send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response(5);
echo "after: {$r['status']} {$r['body']}\n";
$c->send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response(5);
echo "next on the same connection: {$r['status']} {$r['body']}\n";
$srv->waitFor('after: done', 5);
$c->close();

/* A handler failing after its head: the client gets a body cut short, the log the status sent. */
$c = new HttpTestConn($srv->port);
$c->send("GET /fail HTTP/1.1\r\nHost: x\r\n\r\n");
$got = $c->readAll(5);
echo "fail: ", str_contains($got, "\r\n\r\n4\r\npart\r\n") ? 'head and "part"' : json_encode($got),
    ", last chunk ", str_contains($got, "\r\n0\r\n\r\n") ? "sent" : "not sent", "\n";
$c->close();

/* Requests answered: the ones that left are not counted. */
$r = http_get($srv->port, '/stats');
echo "{$r['body']}\n";

/* The access log is flushed every 0.2 s. */
$lines = static fn (): array => preg_match_all('#"(\w+ \S+ HTTP/1\.\d)" (\d+ \d+)$#m', (string) file_get_contents($log), $m,
    PREG_SET_ORDER) ? array_map(fn ($x) => "$x[1] $x[2]", $m) : [];
http_test_poll(fn () => count($lines()) >= 10);
usleep(300000);
echo implode("\n", $lines()), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
$out = $r['out'];
echo preg_match('/RuntimeException: failed midway/', $r['err']) ? "the failure was logged\n" : $r['err'];
echo $out;
unlink($log);
?>
--EXPECT--
pipelined 1: 200 slow done
pipelined 2: 200 hello /p2
after: 200 answered
next on the same connection: 200 hello /next
fail: head and "part", last chunk not sent
requests 4
GET /poll?n=close HTTP/1.1 499 0
GET /poll?n=half HTTP/1.1 499 0
GET /poll?n=http10 HTTP/1.0 499 0
GET /late HTTP/1.1 499 0
GET /slow HTTP/1.1 200 9
GET /p2 HTTP/1.1 200 9
GET /after HTTP/1.1 200 8
GET /next HTTP/1.1 200 11
GET /fail HTTP/1.1 200 4
GET /stats HTTP/1.1 200 10
exit: 0
the failure was logged
ready
close: waiting
close gone: isWritable() false, end() false
half: waiting
half gone: isWritable() false, end() false
http10: waiting
http10 gone: isWritable() false, end() false
late: waiting
late gone: json() false
after: done
start() returned
