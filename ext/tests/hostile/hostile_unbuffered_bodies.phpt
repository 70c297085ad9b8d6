--TEST--
Hostile: with request_buffering off, handlers wait for bodies that trickle, stall, stop, break their chunked framing or pass max_body_size, 200 clients at once: each gets the answer that fits (or none when it left), pipelined requests behind sound bodies are answered in order, other clients are served throughout, and every handler and connection is freed
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
/* Stretched under valgrind, where setting up 200 clients alone takes seconds. */
$accessLog = tempnam(sys_get_temp_dir(), 'rapier-access');
$srv = hostile_server(['request_buffering' => false, 'body_timeout' => http_test_timeout(1.5), 'max_body_size' => 65536,
    'access_log' => $accessLog]);
$ctl = new HostileControl($srv->port);
$head = fn(string $framing) => "POST /attack HTTP/1.1\r\nHost: x\r\n$framing\r\n\r\n";
$clients = [];
for ($i = 0; $i < 40; $i++) {
    /* Each kind on its own connections, all open at once, every handler waiting on its body. */
    $clients['trickles'][$i] = new HttpTestConn($srv->port);
    $clients['trickles'][$i]->send($head($i % 2 ? 'Content-Length: 6' : 'Transfer-Encoding: chunked'));
    $clients['stalls'][$i] = new HttpTestConn($srv->port);
    $clients['stalls'][$i]->send($head('Content-Length: 100') . 'part');
    $clients['leaves'][$i] = new HttpTestConn($srv->port);
    $clients['leaves'][$i]->send($head('Content-Length: 100') . 'part');
    $clients['bad chunks'][$i] = new HttpTestConn($srv->port);
    $clients['bad chunks'][$i]->send($head('Transfer-Encoding: chunked') . "4\r\npart\r\n");
    $clients['too large'][$i] = new HttpTestConn($srv->port);
    $clients['too large'][$i]->send($head('Transfer-Encoding: chunked') . "4\r\npart\r\n");
}
$ctl->check('all waiting');
foreach ($clients['leaves'] as $c) {
    $c->close();
}
foreach ($clients['bad chunks'] as $c) {
    $c->send("zz\r\n");
}
foreach ($clients['too large'] as $c) {
    $c->send("10000\r\n" . str_repeat('L', 65536) . "\r\n");
}
$ctl->check('broken');
for ($byte = 0; $byte < 6; $byte++) {
    foreach ($clients['trickles'] as $i => $c) {
        $c->send($i % 2 ? 't' : "1\r\nt\r\n" . ($byte === 5 ? "0\r\n\r\n" : ''));
    }
    usleep(300000);
}
$ctl->check('trickled');
unset($clients['leaves']);
foreach ($clients as $kind => $conns) {
    $outcomes = array_count_values(array_map(fn($c) => hostile_outcome($c, 5), $conns));
    ksort($outcomes);
    echo "$kind: ", json_encode($outcomes), "\n";
}

/* Sound bodies read whole by their handlers keep the connection: three pipelined, answered in order. */
$c = new HttpTestConn($srv->port);
$c->send($head('Content-Length: 3') . 'abc' . $head('Transfer-Encoding: chunked') . "2\r\nde\r\n0\r\n\r\n" . "GET /ok?n=last HTTP/1.1\r\nHost: x\r\n\r\n");
echo "pipelined: ", implode(', ', array_map(fn($r) => $r === null ? 'none' : "{$r['status']} {$r['body']}", [$c->response(), $c->response(), $c->response()])), "\n";
$c->close();

$stats = $ctl->waitStats(fn($s) => $s['connections'] === 1 && $s['handling'] === 1, 5);
echo "connections left: {$stats['connections']}, handlers running: {$stats['handling']}\n";
$ctl->check('end');
echo $ctl->report(), "\n";
echo "reached the handler: ", count(hostile_handled($srv)), "\n";
$r = $srv->stop();
/* The client's doing, not the application's: no uncaught exception is logged for it; the access log has each status. */
echo "exit: {$r['code']}, uncaught BodyException logged: ", substr_count($r['err'], 'Rapier\Http\BodyException: '),
    ", anything else: ", json_encode(trim($r['err'])), "\n";
preg_match_all('~"POST /attack HTTP/1\.1" (\d{3}) ~', (string) file_get_contents($accessLog), $m);
$statuses = array_count_values($m[1]);
ksort($statuses);
echo "access log: ", json_encode($statuses), "\n";
unlink($accessLog);
?>
--EXPECT--
trickles: {"200 OK, still open":40}
stalls: {"408 Request Timeout, closed":40}
bad chunks: {"400 Bad Request, closed":40}
too large: {"413 Content Too Large, closed":40}
pipelined: 200 handled 3, 200 handled 2, 200 ok last
connections left: 1, handlers running: 1
control: all answered
reached the handler: 202
exit: 0, uncaught BodyException logged: 0, anything else: ""
access log: {"200":42,"400":40,"408":40,"413":40,"499":40}
