--TEST--
HTTP: Response::onAbort() wakes a handler whose client left: its callbacks run, in order and in coroutines of their own, when the client closes or half-closes the connection, when a write times out (write_timeout), when it leaves while the handler reads the body as it arrives, and at once when registered after that; never for a response that ended whole. connection_aborted() and connection_status() tell the handler's coroutine, and stay PHP's own in any other; onAbort() after the handler returned throws
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * Each handler waits 30 s without polling: only a callback can end its
 * wait in time, by closing its channel (/pop) or canceling it (/cancel).
 */
$srv = http_server_start('function ($req, $res) {
    $name = $req->query["n"] ?? "";
    $status = fn () => "connection_aborted() " . connection_aborted() . ", connection_status() " . connection_status()
        . ", isWritable() " . var_export($res->isWritable(), true);
    switch ($req->path) {
        case "/pop":
            $chan = new Rapier\Channel(1);
            $res->onAbort(function () use ($chan, $name) {
                echo "$name: first callback\n";
                $chan->close();
            });
            $res->onAbort(fn () => print("$name: second callback\n"));
            echo "$name: waiting, ", $status(), "\n";
            $got = $chan->pop(30);
            echo "$name gone: pop() ", var_export($got, true), ", ", $status(), "\n";
            Rapier\go(fn () => print("$name: in another coroutine connection_aborted() " . connection_aborted() . "\n"));
            return;
        case "/cancel":
            $handler = Rapier\Coroutine::id();
            $res->onAbort(fn () => Rapier\Coroutine::cancel($handler));
            echo "$name: waiting\n";
            try {
                Rapier\Coroutine::sleep(30);
                echo "$name: slept 30 s\n";
            } catch (Rapier\CanceledException) {
                echo "$name gone: sleep canceled, ", $status(), "\n";
            }
            return;
        case "/late":
            echo "$name: waiting\n";
            while ($res->isWritable()) {
                Rapier\Coroutine::sleep(0.05);
            }
            echo "$name: registers after the client left\n";
            $res->onAbort(fn () => print("$name: callback run at once\n"));
            Rapier\Coroutine::sleep(0.1);
            echo "$name gone: ", $status(), "\n";
            return;
        case "/stream":
            /* write_timeout: the client reads nothing, so a write fails once the socket stays full for 1 s. */
            $res->onAbort(fn () => print("$name: callback after write_timeout\n"));
            echo "$name: waiting\n";
            $chunk = str_repeat("x", 1 << 20);
            for ($i = 0; $i < 1000 && $res->write($chunk); $i++);
            echo "$name gone: write() false, ", $status(), "\n";
            Rapier\Coroutine::sleep(0.1);
            return;
        case "/body":
            /* request_buffering off: the handler reads the body while it arrives, and the client leaves mid-body. */
            $res->onAbort(fn () => print("$name: callback after the body was cut\n"));
            echo "$name: waiting\n";
            try {
                $req->body();
                echo "$name: the body came whole (wrong)\n";
            } catch (Rapier\Http\BodyException $e) {
                echo "$name gone: BodyException ", $e->getCode(), ", ", $status(), "\n";
            }
            Rapier\Coroutine::sleep(0.1);
            return;
        case "/whole":
            $res->onAbort(fn () => print("$name: callback run (wrong: the response ended whole)\n"));
            $res->end("whole");
            $res->onAbort(fn () => print("$name: callback registered after end() run\n"));
            Rapier\Coroutine::sleep(0.3);
            echo "$name done: ", $status(), "\n";
            Rapier\go(function () use ($res, $name) {
                Rapier\Coroutine::sleep(0.1);
                try {
                    $res->onAbort(fn () => null);
                } catch (Rapier\Exception $e) {
                    echo "$name: after return: ", $e->getMessage(), "\n";
                }
            });
            return;
    }
    $res->end("hello " . $req->path);
}', ['write_timeout' => 1, 'request_buffering' => false]);

function leave(HttpTestServer $srv, string $name, string $target, callable $leave): void
{
    $c = new HttpTestConn($srv->port);
    $c->send("GET $target HTTP/1.1\r\nHost: x\r\n\r\n");
    $srv->waitFor("$name: waiting", 5);
    $leave($c);
    $srv->waitFor("$name gone", 10);
    $c->close();
}

$close = fn (HttpTestConn $c) => $c->close();
leave($srv, 'close', '/pop?n=close', $close);
leave($srv, 'half', '/pop?n=half', fn (HttpTestConn $c) => stream_socket_shutdown($c->sock, STREAM_SHUT_WR));
leave($srv, 'cancel', '/cancel?n=cancel', $close);
leave($srv, 'late', '/late?n=late', $close);
/* The client stays, reading nothing: the 1 s write_timeout cuts the response. */
leave($srv, 'stream', '/stream?n=stream', fn () => null);
foreach (['body' => $close, 'body-half' => fn (HttpTestConn $c) => stream_socket_shutdown($c->sock, STREAM_SHUT_WR)]
        as $name => $how) {
    $c = new HttpTestConn($srv->port);
    $c->send("POST /body?n=$name HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nten bytes.");
    $srv->waitFor("$name: waiting", 5);
    $how($c);
    $srv->waitFor("$name: callback", 10);
    $c->close();
}

$c = new HttpTestConn($srv->port);
$c->send("GET /whole?n=whole HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response(5);
echo "whole: {$r['status']} {$r['body']}\n";
$c->close();
$srv->waitFor('whole: after return', 5);

$r = http_get($srv->port, '/next');
echo "next: {$r['status']} {$r['body']}\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'], $r['out'];
?>
--EXPECT--
whole: 200 whole
next: 200 hello /next
exit: 0
ready
close: waiting, connection_aborted() 0, connection_status() 0, isWritable() true
close: first callback
close: second callback
close gone: pop() false, connection_aborted() 1, connection_status() 1, isWritable() false
close: in another coroutine connection_aborted() 0
half: waiting, connection_aborted() 0, connection_status() 0, isWritable() true
half: first callback
half: second callback
half gone: pop() false, connection_aborted() 1, connection_status() 1, isWritable() false
half: in another coroutine connection_aborted() 0
cancel: waiting
cancel gone: sleep canceled, connection_aborted() 1, connection_status() 1, isWritable() false
late: waiting
late: registers after the client left
late: callback run at once
late gone: connection_aborted() 1, connection_status() 1, isWritable() false
stream: waiting
stream gone: write() false, connection_aborted() 1, connection_status() 1, isWritable() false
stream: callback after write_timeout
body: waiting
body gone: BodyException 499, connection_aborted() 1, connection_status() 1, isWritable() false
body: callback after the body was cut
body-half: waiting
body-half gone: BodyException 499, connection_aborted() 1, connection_status() 1, isWritable() false
body-half: callback after the body was cut
whole done: connection_aborted() 0, connection_status() 0, isWritable() false
whole: after return: Cannot register an abort callback: its request handler has returned, which ended the response (a coroutine writing it must be waited for before the handler returns, with a Rapier\WaitGroup for example)
start() returned
