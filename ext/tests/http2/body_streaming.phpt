--TEST--
HTTP/2: request_buffering off starts a stream's handler at its HEADERS and hands it the DATA as it comes: full duplex on one stream, a handler not reading holds its sender back by flow control while other streams go on, early answers reset a large rest and take a small one in, 100-continue on the first read, a reset or an oversized body throws BodyException, and unread bytes never shrink the connection's window
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/h2.inc';
$srv = http_server_start('function ($req, $res) {
    static $release = null;
    $release ??= new Rapier\Channel(1);
    switch ($req->path) {
        case "/echo":
            $in = $req->bodyStream();
            while (($piece = fread($in, 65536)) !== "") {
                $res->write(strtoupper($piece));
            }
            $res->end();
            return;
        case "/held":
            /* Reads nothing until /release: its client may send only the stream window meanwhile. */
            $release->pop();
            $res->end(md5($req->body()) . " " . $req->bodySize());
            return;
        case "/drop":
            $release->pop();
            $res->end("dropped");
            return;
        case "/release":
            for ($i = (int) ($req->query["n"] ?? 1); $i > 0; $i--) {
                $release->push(true);
            }
            $res->end("released");
            return;
        case "/md5":
            $res->end(md5(stream_get_contents($req->bodyStream())) . " " . $req->bodySize());
            return;
        case "/deny":
            $res->status(401);
            $res->end("denied");
            return;
        case "/catch":
            try {
                $GLOBALS["caught"] = "read " . strlen($req->body());
            } catch (Rapier\Http\BodyException $e) {
                $GLOBALS["caught"] = get_class($e) . " " . $e->getCode() . ": " . $e->getMessage();
            }
            return;
        case "/caught":
            $res->end($GLOBALS["caught"] ?? "nothing");
            return;
        case "/uncaught":
            $req->body();
            return;
    }
}', ['http2' => true, 'request_buffering' => false, 'max_body_size' => 4 << 20]);
$p = $srv->port;
/*
 * Lets $n held handlers read, from a connection of its own, waiting for the
 * answer: closed before the server's SETTINGS are read, a socket is reset,
 * and the request may be lost with it.
 */
$release = function (int $n) use ($p) {
    $r = new H2TestConn($p);
    $r->request(1, 'GET', "/release?n=$n");
    $r->stream(1);
    $r->close();
};
/* A send that is to stall waits this long, not stretched for valgrind: nothing is to come. */
$stall = 0.3 / http_test_timeout(1);
$ends = fn (array $frames) => implode(', ', array_map('h2_describe', array_filter($frames, fn ($f) => $f['type'] !== H2_HEADERS || $f['flags'] & H2_END_STREAM)));

echo "-- full duplex on one stream\n";
$c = new H2TestConn($p);
$c->request(1, 'POST', '/echo', [], false);
foreach (['one ', 'two ', 'three'] as $piece) {
    $c->data(1, $piece, false);
    $f = $c->frames(fn ($f) => $f['type'] === H2_DATA && $f['stream'] === 1, 5);
    echo "$piece: ", json_encode(h2_body($f)), "\n";
}
$c->data(1, '', true);
echo "end: ", $ends($c->stream(1)), "\n";

echo "-- flow control holds back a sender whose handler does not read; other streams go on\n";
$big = random_bytes(3 << 20);
$c->request(3, 'PUT', '/held', [['content-length', (string) strlen($big)]], false);
$complete = $c->data(3, $big, true, $stall, $sent);
echo "sent before the handler read: ", $complete ? 'everything' : ($sent <= 1 << 20 ? 'at most the 1 MiB stream window' : "$sent bytes"), "\n";
$c->request(5, 'PUT', '/md5', [['content-length', '100000']], false);
$c->data(5, str_repeat('m', 100000));
echo "another stream meanwhile: ", h2_body($c->stream(5)) === md5(str_repeat('m', 100000)) . ' 100000' ? 'answered' : 'not answered', "\n";
$release(1);
$c->data(3, substr($big, $sent), true, 10);
echo "once it reads: ", h2_body($c->stream(3, 10)) === md5($big) . ' ' . strlen($big) ? 'the whole body' : 'something else', "\n";

echo "-- an early answer resets the rest of the stream; 100-continue waits for a read\n";
$c->request(7, 'PUT', '/deny', [['content-length', '2000000']], false);
$c->data(7, str_repeat('d', 200000), false, 1);
$reset = fn (int $id) => implode(', ', array_map('h2_describe', array_filter(
    $c->frames(fn ($f) => $f['stream'] === $id && $f['type'] === H2_RST_STREAM, 3), fn ($f) => $f['stream'] === $id)));
echo "without reading: ", $reset(7), "\n";
$c->request(9, 'PUT', '/deny', [['content-length', '5'], ['expect', '100-continue']], false);
echo "expect, not read: ", $reset(9), "\n";
$c->request(11, 'PUT', '/md5', [['content-length', '5'], ['expect', '100-continue']], false);
$first = $c->frames(fn ($f) => $f['stream'] === 11, 3);
echo "expect, read: ", implode(', ', array_map('h2_describe', $first)), " first; ";
$c->data(11, 'hello');
echo h2_body($c->stream(11)) === md5('hello') . ' 5' ? 'then the body' : 'then something else', "\n";
$c->request(13, 'PUT', '/deny', [['content-length', '100']], false);
$answer = $c->stream(13);
$c->data(13, str_repeat('r', 100));
$c->request(15, 'GET', '/md5');
$after = $c->frames(fn ($f) => $f['stream'] === 15 && $f['flags'] & H2_END_STREAM, 5);
echo "a small rest sent after the answer: ", implode(', ', array_map('h2_describe', $answer)), "; taken in, no reset: ",
    var_export(!array_filter($after, fn ($f) => $f['stream'] === 13), true), "\n";
/* curl sends its body only once the answer is in: a reset then would fail the transfer (curl 7.88: exit 92). */
$curl = proc_open(['curl', '-sS', '--http2-prior-knowledge', '--max-time', (string) http_test_timeout(5), '-H', 'Content-Length: 1000',
    '-T', '-', "http://127.0.0.1:$p/deny"], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
usleep(300000);
/* curl may have finished already: with the whole answer in, some runs it sends no body at all. */
@fwrite($pipes[0], str_repeat('c', 1000));
fclose($pipes[0]);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
echo "curl sending a small body after the answer: exit ", proc_close($curl), ", $out", trim($err), "\n";

echo "-- bytes never read give their window back: 3 rounds of 6 streams left with 1 MiB unread, past the 16 MiB connection window\n";
$id = 101;
for ($round = 1; $round <= 3; $round++) {
    $ids = [];
    for ($i = 0; $i < 6; $i++, $id += 2) {
        $c->request($id, 'PUT', '/drop', [['content-length', (string) (2 << 20)]], false);
        $c->data($id, substr($big, 0, 2 << 20), true, $stall, $sent);
        $ids[$id] = $sent;
    }
    $release(6);
    /* Up to every stream's reset, which goes after the window update of what it dropped. */
    $resets = 0;
    $frames = $c->frames(function ($f) use ($ids, &$resets) {
        return isset($ids[$f['stream']]) && $f['type'] === H2_RST_STREAM && ++$resets === count($ids);
    }, 5);
    $answers = [];
    foreach ($ids as $dropped => $sent) {
        $answers[] = ($sent === 1 << 20 ? '1 MiB' : "$sent bytes") . ' '
            . h2_body(array_filter($frames, fn ($f) => $f['stream'] === $dropped));
    }
    echo "round $round: ", implode(', ', array_count_values($answers)) === '6' ? '6 x ' . $answers[0] : json_encode($answers), "\n";
}
$c->request($id, 'PUT', '/md5', [['content-length', (string) strlen($big)]], false);
$ok = $c->data($id, $big, true, 5);
echo "then 3 MiB: sent ", var_export($ok, true), ", ", h2_body($c->stream($id, 10)) === md5($big) . ' ' . strlen($big) ? 'answered whole' : 'not answered', "\n";

echo "-- the rest will not come\n";
$id += 2;
$c->request($id, 'PUT', '/catch', [['content-length', '100']], false);
$c->data($id, 'part', false);
usleep(100000);
$c->send(h2_frame(H2_RST_STREAM, 0, $id, pack('N', 8)));
/* The handler learns of the reset when the worker reads it: asked until it has. */
$caught = http_test_poll(fn () => ($seen = trim(h2_curl($p, '/caught')[1])) !== 'nothing' ? $seen : null, 5);
echo "reset by the client: $caught\n";
$id += 2;
$c->request($id, 'PUT', '/uncaught', [], false);
$c->data($id, str_repeat('x', 3 << 20), false, 5);
$c->data($id, str_repeat('x', 2 << 20), true, 5);
echo "past max_body_size, uncaught: ", json_encode(h2_body($c->stream($id))), "\n";
$c->close();
echo "the worker serves on: ", h2_curl($p, '/md5', ['-d', 'abc'])[1] === md5('abc') . ' 3' ? 'yes' : 'no', "\n";
$r = $srv->stop();
/* Answered with the status that fits, as with request_buffering on: the client's doing, not logged as the application's. */
echo "exit: {$r['code']}, uncaught exceptions logged: ", substr_count($r['err'], 'Rapier\Http\BodyException: '), "\n";
?>
--EXPECT--
-- full duplex on one stream
one : "ONE "
two : "TWO "
three: "THREE"
end: DATA end ""
-- flow control holds back a sender whose handler does not read; other streams go on
sent before the handler read: at most the 1 MiB stream window
another stream meanwhile: answered
once it reads: the whole body
-- an early answer resets the rest of the stream; 100-continue waits for a read
without reading: HEADERS, DATA end "denied", RST_STREAM code 0
expect, not read: HEADERS, DATA end "denied", RST_STREAM code 0
expect, read: HEADERS first; then the body
a small rest sent after the answer: HEADERS, DATA end "denied"; taken in, no reset: true
curl sending a small body after the answer: exit 0, denied
-- bytes never read give their window back: 3 rounds of 6 streams left with 1 MiB unread, past the 16 MiB connection window
round 1: 6 x 1 MiB dropped
round 2: 6 x 1 MiB dropped
round 3: 6 x 1 MiB dropped
then 3 MiB: sent true, answered whole
-- the rest will not come
reset by the client: Rapier\Http\BodyException 499: The request body cannot be read whole: the client reset the stream before the body ended
past max_body_size, uncaught: "The request body cannot be read whole: the request body is larger than max_body_size\n"
the worker serves on: yes
exit: 0, uncaught exceptions logged: 0
