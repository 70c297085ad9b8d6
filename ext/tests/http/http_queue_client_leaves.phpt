--TEST--
HTTP: a queued request whose client closes or half-closes its connection is dropped without running the handler (499 in the access log), while the other queued requests still run in arrival order, a pipelined one behind those that arrived before it
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$busyFor = http_test_valgrind() ? 4.0 : 1.5;
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
$srv = http_server_start('function ($req, $res) {
    global $server, $ran;
    if ($req->path === "/stats") {
        $stats = $server->stats();
        $res->end(sprintf("ran=%s abandoned=%d shed=%d", implode(",", $ran), $stats["abandoned"], $stats["shed"]));
        return;
    }
    $ran[] = $req->path;
    Rapier\Coroutine::sleep((float) ($req->query["t"] ?? 0));
    $res->end("done " . $req->path);
}', ['concurrency' => 1, 'access_log' => $log], '$ran = [];');

function queued(int $port, string $requests): HttpTestConn
{
    $c = new HttpTestConn($port);
    $c->send($requests);
    return $c;
}

$get = static fn (string $path): string => "GET $path HTTP/1.1\r\nHost: x\r\n\r\n";
$busy = queued($srv->port, $get("/busy?t=$busyFor"));
usleep(100000);
$closed = queued($srv->port, $get('/closed'));
$half = queued($srv->port, $get('/half'));
$pipelined = queued($srv->port, $get('/p1') . $get('/p2'));
$late = queued($srv->port, $get('/l1'));
$stays = queued($srv->port, $get('/stays'));
usleep(100000);
// Arrives while /l1 is queued: it waits in the kernel, and /l1 stays queued.
$late->send($get('/l2'));
usleep(50000);
$closed->close();
stream_socket_shutdown($half->sock, STREAM_SHUT_WR);

// Dropped at once, not at their turn: the busy handler is still running.
echo $half->closedWithin(1.0) ? "half-closed: closed without an answer\n" : "half-closed: still open\n";
usleep(400000);  // the access log is flushed within 0.2 s
$dropped = [];
foreach (file($log, FILE_IGNORE_NEW_LINES) as $line) {
    if (preg_match('#"GET (/\w+) HTTP/1.1" 499 0$#', $line, $m)) {
        $dropped[] = $m[1];
    }
}
sort($dropped);
echo "499 while busy ran: ", implode(',', $dropped), "\n";

$r = $busy->response($busyFor + 5);
echo "busy: {$r['status']}\n";
foreach ([$pipelined, $pipelined, $late, $late, $stays] as $c) {
    $r = $c->response(5);
    echo "{$r['status']} {$r['body']}\n";
}
$r = http_request($srv->port, "GET /stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
echo $r['body'], "\n";
http_report_stop($srv);
unlink($log);
?>
--EXPECT--
half-closed: closed without an answer
499 while busy ran: /closed,/half
busy: 200
200 done /p1
200 done /p2
200 done /l1
200 done /l2
200 done /stays
ran=/busy,/p1,/l1,/stays,/p2,/l2 abandoned=2 shed=0
exit: 0
