--TEST--
HTTP: request_buffering off starts the handler at the head; the body is read while it arrives (full duplex, 100-continue on the first read, early answers, body()/post/saveBody() waiting for the rest), and a body whose rest will not come throws BodyException with the fitting status
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$mib = http_test_valgrind() ? 4 : 20;
$saved = sys_get_temp_dir() . '/rapier-streamed-' . getmypid();
$srv = http_server_start('function ($req, $res) {
    $describe = fn(Throwable $e) => get_class($e) . " " . $e->getCode() . ": " . $e->getMessage();
    switch ($req->path) {
        case "/echo":
            /* Each piece goes back as soon as it is read, before the rest of the body exists. */
            $in = $req->bodyStream();
            while (($piece = fread($in, 65536)) !== "") {
                $res->write(strtoupper($piece));
            }
            $res->end();
            return;
        case "/md5":
            $in = fopen("php://input", "rb");
            $ctx = hash_init("md5");
            $before = $req->bodySize();
            while (!feof($in)) {
                hash_update($ctx, fread($in, 65536));
            }
            $res->json(["md5" => hash_final($ctx), "size_before" => $before, "size" => $req->bodySize(),
                "file" => $req->bodyFile(), "peak_under_10m" => memory_get_peak_usage() < (10 << 20)]);
            return;
        case "/deny":
            $res->status(401);
            $res->end("denied\n");
            return;
        case "/whole":
            $res->json(["body" => $req->body(), "again" => $req->body(), "stream" => stream_get_contents($req->bodyStream()),
                "post" => $req->post, "size" => $req->bodySize()]);
            return;
        case "/save":
            $req->saveBody(' . var_export($saved, true) . ');
            $res->json(["md5" => md5_file(' . var_export($saved, true) . '), "size" => $req->bodySize()]);
            return;
        case "/files":
            $res->json(["post" => $req->post, "file" => $req->files["f"]["size"] ?? null]);
            return;
        case "/misuse":
            $out = [];
            $first = $req->bodyStream();
            $out["first"] = fread($first, 3);
            try {
                $req->body();
            } catch (Rapier\Exception $e) {
                $out["body_after_stream"] = $describe($e);
            }
            $out["first"] .= fread($first, 7);
            $ch = new Rapier\Channel(1);
            $in = $req->bodyStream();
            Rapier\go(function () use ($in, $ch, $describe) {
                try {
                    $ch->push(fread($in, 10));
                } catch (Rapier\Exception $e) {
                    $ch->push($describe($e));
                }
            });
            Rapier\Coroutine::sleep(0.05);
            try {
                fread($req->bodyStream(), 10);
            } catch (Rapier\Exception $e) {
                $out["second_reader"] = $describe($e);
            }
            $out["other_coroutine"] = $ch->pop();
            $res->json($out);
            return;
        case "/catch":
            try {
                $GLOBALS["caught"] = "read " . strlen($req->body());
            } catch (Rapier\Http\BodyException $e) {
                $GLOBALS["caught"] = $describe($e);
            }
            return;
        case "/caught":
            $res->end(($GLOBALS["caught"] ?? "nothing") . "\n");
            return;
        case "/uncaught":
            $req->body();
            $res->end("unreached\n");
            return;
    }
}', ['request_buffering' => false, 'body_timeout' => 0.5, 'max_body_size' => ($mib + 1) << 20, 'body_buffer_size' => 4096]);
$port = $srv->port;
$head = fn(string $method, string $path, array $headers) => "$method $path HTTP/1.1\r\nHost: x\r\n" . implode('', array_map(fn($h) => "$h\r\n", $headers)) . "\r\n";
$chunk = fn(string $data) => dechex(strlen($data)) . "\r\n$data\r\n";
$show = fn(?array $r) => $r === null ? 'no response' : $r['status'] . ' ' . trim($r['body']) . (isset($r['headers']['connection']) ? ' [Connection: ' . $r['headers']['connection'][0] . ']' : '');

echo "-- full duplex: each piece is answered before the next is sent\n";
$c = new HttpTestConn($port);
$c->send($head('POST', '/echo', ['Transfer-Encoding: chunked']));
$got = [];
foreach (['one ', 'two ', 'three'] as $piece) {
    $c->send($chunk($piece));
    $seen = '';
    $deadline = microtime(true) + http_test_timeout(5);
    while (!str_contains($seen, strtoupper($piece)) && microtime(true) < $deadline) {
        $seen .= $c->readSome(1);
    }
    $got[] = str_contains($seen, strtoupper($piece)) ? "$piece: echoed" : "$piece: not echoed (" . json_encode($seen) . ")";
}
echo implode("\n", $got), "\n";
$c->send("0\r\n\r\n");
/* Its head went before the body ended; a chunked rest may be dropped (max_body_discard), so it kept the connection. */
$seen = '';
$deadline = microtime(true) + http_test_timeout(5);
while (!str_ends_with($seen, "0\r\n\r\n") && microtime(true) < $deadline) {
    $seen .= $c->readSome(1);
}
$c->send($head('POST', '/echo', ['Content-Length: 4']) . 'next');
echo "the connection serves on: ", $show($c->response()), "\n";
$c->close();

echo "-- a large body read as it arrives, from php://input\n";
$data = random_bytes($mib << 20);
$r = http_request($port, $head('PUT', '/md5', ['Content-Length: ' . strlen($data)]) . $data, 30);
$j = json_decode($r['body'], true);
echo "md5 ", $j['md5'] === md5($data) ? 'matches' : 'differs', ", bodySize() before the end: ", $j['size_before'] === strlen($data) ? 'Content-Length' : $j['size_before'],
    ", after: ", $j['size'] === strlen($data) ? 'the size' : $j['size'], ", bodyFile(): ", var_export($j['file'], true),
    ", peak memory under 10 MiB: ", var_export($j['peak_under_10m'], true), "\n";
$raw = $head('PUT', '/md5', ['Transfer-Encoding: chunked']);
foreach (str_split(substr($data, 0, 300000), 70000) as $piece) {
    $raw .= $chunk($piece);
}
$j = json_decode(http_request($port, $raw . "0\r\n\r\n", 10)['body'], true);
echo "chunked: md5 ", $j['md5'] === md5(substr($data, 0, 300000)) ? 'matches' : 'differs', ", bodySize() before the end: ", $j['size_before'], "\n";

echo "-- Expect: 100-continue is answered when the handler reads, not before\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/deny', ['Content-Length: 1000000', 'Expect: 100-continue']));
echo "an answer without reading: ", $show($c->response()), ", no body was asked for, closed: ", var_export($c->closedWithin(3), true), "\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/md5', ['Content-Length: 5', 'Expect: 100-continue']));
$r = $c->response();
echo "a reading handler: ", $r['status'], " first; ";
$c->send('hello');
$j = json_decode($c->response()['body'], true);
echo "then ", $j['md5'] === md5('hello') ? 'the body' : 'something else', "\n";
$c->close();

echo "-- an early answer without Expect: the rest is discarded, the connection closes after it\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/deny', ['Content-Length: 3000000']) . str_repeat('x', 100000));
echo $show($c->response()), ", closed: ", var_export($c->closedWithin(5), true), "\n";

echo "-- body(), post and saveBody() wait for the rest; a whole body keeps the connection\n";
$c = new HttpTestConn($port);
$c->send($head('POST', '/whole', ['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 11']) . 'a=1&b');
usleep(100000);
$c->send('=2&c=3' . $head('GET', '/caught', []));
$r = $c->response();
echo $r['status'], ' ', $r['body'], isset($r['headers']['connection']) ? ' [close]' : ' [kept]', "\n";
echo "pipelined after it: ", $show($c->response()), "\n";
$c->close();
$r = http_request($port, $head('PUT', '/save', ['Content-Length: 100000', 'Connection: close']) . substr($data, 0, 100000), 10);
$j = json_decode($r['body'], true);
echo "saveBody(): ", $j['md5'] === md5(substr($data, 0, 100000)) ? 'the body' : 'differs', ", size ", $j['size'], "\n";
@unlink($saved);

echo "-- multipart is still spooled whole before the handler\n";
$form = "--B\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\nv\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n\r\n"
    . str_repeat('z', 5000) . "\r\n--B--\r\n";
echo http_request($port, $head('POST', '/files', ['Content-Type: multipart/form-data; boundary=B', 'Content-Length: ' . strlen($form), 'Connection: close']) . $form)['body'], "\n";

echo "-- misuse\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/misuse', ['Content-Length: 20', 'Connection: close']) . 'abcdefghij');
usleep(200000);
$c->send('klmnopqrst');
echo $c->response()['body'], "\n";
$c->close();

echo "-- the rest will not come\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/catch', ['Content-Length: 100']) . 'only part');
usleep(100000);
$c->close();
/* The handler learns of the close when the worker reads it: asked until it has. */
$caught = http_test_poll(fn() => ($seen = trim(http_get($port, '/caught')['body'])) !== 'nothing' ? $seen : null, 5);
echo "client gone: $caught\n";
/* A client that shut down its side mid-body left all the same (as for a queued request): no answer, caught or not. */
foreach (['/catch', '/uncaught'] as $path) {
    $c = stream_socket_client("tcp://127.0.0.1:$port");
    fwrite($c, $head('PUT', $path, ['Content-Length: 100']) . 'only part');
    stream_socket_shutdown($c, STREAM_SHUT_WR);
    stream_set_timeout($c, (int) ceil(http_test_timeout(5)));
    $got = stream_get_contents($c);
    echo "half-closed mid-body, $path: ", $got === '' && !stream_get_meta_data($c)['timed_out'] ? 'no answer, closed' : json_encode($got), "\n";
    fclose($c);
}
$c = new HttpTestConn($port);
$c->send($head('PUT', '/uncaught', ['Content-Length: 100']) . 'only part');
echo "stalled, uncaught: ", $show($c->response(5)), "\n";
$c->close();
$raw = $head('PUT', '/uncaught', ['Transfer-Encoding: chunked']);
$big = str_repeat('y', 1 << 20);
$c = new HttpTestConn($port);
$c->send($raw);
for ($i = 0; $i <= $mib + 1 && !$c->eof; $i++) {
    $c->send($chunk($big));
}
echo "past max_body_size, uncaught: ", $show($c->response(10)), "\n";
$c->close();
echo "malformed chunk, uncaught: ", $show(http_request($port, $raw . "zz\r\nabc\r\n")), "\n";
echo "the worker serves on: ", $show(http_get($port, '/deny')), "\n";
$r = $srv->stop();
/* Answered with the status that fits, as with request_buffering on: the client's doing, not logged as the application's. */
echo "exit: {$r['code']}, uncaught exceptions logged: ", substr_count($r['err'], 'Rapier\Http\BodyException: '), "\n";
?>
--EXPECT--
-- full duplex: each piece is answered before the next is sent
one : echoed
two : echoed
three: echoed
the connection serves on: 200 NEXT
-- a large body read as it arrives, from php://input
md5 matches, bodySize() before the end: Content-Length, after: the size, bodyFile(): NULL, peak memory under 10 MiB: true
chunked: md5 matches, bodySize() before the end: -1
-- Expect: 100-continue is answered when the handler reads, not before
an answer without reading: 401 denied [Connection: close], no body was asked for, closed: true
a reading handler: 100 first; then the body
-- an early answer without Expect: the rest is discarded, the connection closes after it
401 denied [Connection: close], closed: true
-- body(), post and saveBody() wait for the rest; a whole body keeps the connection
200 {"body":"a=1&b=2&c=3","again":"a=1&b=2&c=3","stream":"a=1&b=2&c=3","post":{"a":"1","b":"2","c":"3"},"size":11} [kept]
pipelined after it: 200 nothing
saveBody(): the body, size 100000
-- multipart is still spooled whole before the handler
{"post":{"t":"v"},"file":5000}
-- misuse
{"first":"abcdefghij","body_after_stream":"Rapier\\Exception 0: Part of the request body was read already (bodyStream(), php:\/\/input): the rest of it is only on that stream","second_reader":"Rapier\\Exception 0: Another coroutine is reading this request's body: read it from one coroutine at a time","other_coroutine":"klmnopqrst"}
-- the rest will not come
client gone: Rapier\Http\BodyException 499: The request body cannot be read whole: the client closed the connection before the body ended
half-closed mid-body, /catch: no answer, closed
half-closed mid-body, /uncaught: no answer, closed
stalled, uncaught: 408 The request body cannot be read whole: no byte of the request body came in time [Connection: close]
past max_body_size, uncaught: 413 The request body cannot be read whole: the request body is larger than max_body_size [Connection: close]
malformed chunk, uncaught: 400 The request body cannot be read whole: invalid chunked encoding [Connection: close]
the worker serves on: 401 denied [Connection: close]
exit: 0, uncaught exceptions logged: 0
