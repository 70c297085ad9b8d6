--TEST--
HTTP: a streamed response notices its client leaving while the handler waits between writes (close, half-close, HTTP/1.0, a body read first or left unread): isWritable() turns false with no write, write() and end() return false, the access log keeps the status sent (200, as nginx logs it) with the bytes written; the next connection is served
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
/*
 * An SSE-like handler: a first event, then a wait on a channel nobody
 * pushes, checking isWritable() between waits, for 20 s at most. Without
 * the watch for the client leaving it would stay writable all that time.
 */
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/hello") {
        $res->end("hello");
        return;
    }
    $name = $req->query["n"];
    if ($name === "body") {
        $body = stream_get_contents($req->bodyStream());
        echo "$name: read ", strlen($body), " bytes\n";
    }
    $res->header("Content-Type", "text/event-stream");
    $res->write("data: first\n\n");
    echo "$name: first sent\n";
    $chan = new Rapier\Channel(1);
    $deadline = microtime(true) + 20;
    while ($res->isWritable() && microtime(true) < $deadline) {
        $chan->pop(0.2);
    }
    echo "$name: ", $res->isWritable() ? "still writable after 20 s" : "isWritable() false",
        ", write() ", var_export($res->write("data: late\n\n"), true), ", end() ", var_export($res->end(), true), "\n";
}', ['access_log' => $log, 'request_buffering' => false]);

/* Sends $request, reads up to the first event, then leaves as $leave does, and waits for the handler to be done. */
function leave(HttpTestServer $srv, string $name, string $request, callable $leave): void
{
    $c = new HttpTestConn($srv->port);
    $c->send($request);
    $got = '';
    $deadline = microtime(true) + http_test_timeout(5);
    while (!str_contains($got, "data: first\n\n") && !$c->eof && microtime(true) < $deadline) {
        $got .= $c->readSome(5);
    }
    echo "$name: got the first event: ", var_export(str_contains($got, "data: first\n\n"), true), "\n";
    $srv->waitFor("$name: first sent", 5);
    $leave($c);
    $srv->waitFor("$name: isWritable", 30) || $srv->waitFor("$name: still", 30);
    $c->close();
}

$close = fn (HttpTestConn $c) => $c->close();
$halfClose = fn (HttpTestConn $c) => stream_socket_shutdown($c->sock, STREAM_SHUT_WR);
leave($srv, 'close', "GET /sse?n=close HTTP/1.1\r\nHost: x\r\n\r\n", $close);
leave($srv, 'half', "GET /sse?n=half HTTP/1.1\r\nHost: x\r\n\r\n", $halfClose);
leave($srv, 'http10', "GET /sse?n=http10 HTTP/1.0\r\n\r\n", $close);
/* request_buffering off: the body read whole before the stream, or its rest never sent. */
leave($srv, 'body', "POST /sse?n=body HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", $close);
leave($srv, 'unread', "POST /sse?n=unread HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello", $close);

$r = http_get($srv->port, '/hello');
echo "next connection: {$r['status']} {$r['body']}\n";

/* The access log is flushed every 0.2 s. */
$lines = static fn (): array => preg_match_all('#"(\w+ \S+ HTTP/1\.\d)" (\d+ \d+)$#m', (string) file_get_contents($log), $m,
    PREG_SET_ORDER) ? array_map(fn ($x) => "$x[1] $x[2]", $m) : [];
http_test_poll(fn () => count($lines()) >= 6);
echo implode("\n", $lines()), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'], $r['err'];
unlink($log);
?>
--EXPECT--
close: got the first event: true
half: got the first event: true
http10: got the first event: true
body: got the first event: true
unread: got the first event: true
next connection: 200 hello
GET /sse?n=close HTTP/1.1 200 13
GET /sse?n=half HTTP/1.1 200 13
GET /sse?n=http10 HTTP/1.0 200 13
POST /sse?n=body HTTP/1.1 200 13
POST /sse?n=unread HTTP/1.1 200 13
GET /hello HTTP/1.1 200 5
exit: 0
ready
close: first sent
close: isWritable() false, write() false, end() false
half: first sent
half: isWritable() false, write() false, end() false
http10: first sent
http10: isWritable() false, write() false, end() false
body: read 5 bytes
body: first sent
body: isWritable() false, write() false, end() false
unread: first sent
unread: isWritable() false, write() false, end() false
start() returned
