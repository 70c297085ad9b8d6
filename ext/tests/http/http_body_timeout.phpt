--TEST--
HTTP: body_timeout bounds a request body by its progress instead of read_timeout: a slow body that keeps coming is served past read_timeout, one that stalls for body_timeout gets 408, a slow head still gets 408 at read_timeout; without it read_timeout covers the body; the same on HTTP/2 streams
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/../http2/h2.inc';
$handler = 'function ($req, $res) {
    $res->end("got " . $req->bodySize() . " bytes, md5 " . md5($req->body()));
}';
$piece = str_repeat('x', 1000);
$pieces = 8;
$body = str_repeat($piece, $pieces);
$head = "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: " . strlen($body) . "\r\n\r\n";

/* Sends the head, then the body a piece every $gap seconds (2 s in all, twice read_timeout); returns the answer. */
$slowBody = function (int $port, float $gap, int $stallAfter = -1) use ($head, $piece, $pieces, $body): string {
    $c = new HttpTestConn($port);
    $c->send($head);
    $t = microtime(true);
    for ($i = 0; $i < $pieces && !$c->eof; $i++) {
        usleep((int) ($gap * ($i === $stallAfter ? 8 : 1) * 1e6));
        $c->send($piece);
        if ($i === $stallAfter) {
            break;
        }
    }
    $r = $c->response(http_test_timeout(6));
    $took = microtime(true) - $t;
    return ($r ? "{$r['status']} " . str_replace(md5($body), 'of the body', trim($r['body'])) : 'no answer') . ($r && $r['status'] === 200 ? ', taking ' . ($took > 1.5 ? 'more' : 'less') . ' than read_timeout' : '');
};
$slowH2 = function (int $port, float $gap, int $stallAfter = -1) use ($piece, $pieces, $body): string {
    $c = new H2TestConn($port);
    $c->request(1, 'PUT', '/', [], false);
    for ($i = 0; $i < $pieces; $i++) {
        usleep((int) ($gap * ($i === $stallAfter ? 8 : 1) * 1e6));
        $c->data(1, $piece, $i === $pieces - 1);
        if ($i === $stallAfter) {
            break;
        }
    }
    $frames = $c->stream(1, http_test_timeout(6));
    $c->close();
    return $frames ? str_replace(md5($body), 'of the body', trim(h2_body($frames))) : 'no answer';
};

$srv = http_server_start($handler, ['read_timeout' => 1, 'body_timeout' => 1, 'http2' => true]);
echo "body_timeout 1, a piece every 0.25 s: ", $slowBody($srv->port, 0.25), "\n";
echo "body_timeout 1, stalled for 2 s: ", $slowBody($srv->port, 0.25, 3), "\n";
/* A head that keeps coming, 4 bytes every 0.25 s: read_timeout still ends it. */
$c = new HttpTestConn($srv->port);
$t = microtime(true);
$answer = '';
foreach (str_split("PUT / HTTP/1.1\r\nHost: x\r\nX-Slow: " . str_repeat('h', 40), 4) as $bytes) {
    $c->send($bytes);
    if (($answer = $c->readSome(0.25)) !== '' || $c->eof) {
        break;
    }
}
echo "a slow head: ", substr($answer, 0, 12), " after ", microtime(true) - $t < 1.6 ? 'read_timeout' : 'longer', "\n";
echo "HTTP/2, a piece every 0.25 s: ", $slowH2($srv->port, 0.25), "\n";
echo "HTTP/2, stalled for 2 s: ", $slowH2($srv->port, 0.25, 3), "\n";
http_report_stop($srv);

$srv = http_server_start($handler, ['read_timeout' => 1, 'http2' => true]);
echo "without body_timeout, a piece every 0.25 s: ", $slowBody($srv->port, 0.25), "\n";
echo "HTTP/2 without body_timeout: ", $slowH2($srv->port, 0.25), "\n";
http_report_stop($srv);
?>
--EXPECT--
body_timeout 1, a piece every 0.25 s: 200 got 8000 bytes, md5 of the body, taking more than read_timeout
body_timeout 1, stalled for 2 s: 408 408 Request Timeout: the request did not arrive in time
a slow head: HTTP/1.1 408 after read_timeout
HTTP/2, a piece every 0.25 s: got 8000 bytes, md5 of the body
HTTP/2, stalled for 2 s: 408 Request Timeout: the request did not arrive in time
exit: 0
without body_timeout, a piece every 0.25 s: 408 408 Request Timeout: the request did not arrive in time
HTTP/2 without body_timeout: 408 Request Timeout: the request did not arrive in time
exit: 0
