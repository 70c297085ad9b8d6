--TEST--
HTTP: a queued request whose client closes or half-closes its connection is dropped without running the handler (499 in the access log), while the other queued requests still run in arrival order, a pipelined one behind those that arrived before it
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
/*
 * /busy holds the only handler slot until the test closes its connection to
 * this socket; meanwhile it echoes each line the test sends back.
 */
$gatePath = tempnam(sys_get_temp_dir(), 'rapier-gate-');
unlink($gatePath);
$gate = stream_socket_server("unix://$gatePath");
$srv = http_server_start('function ($req, $res) {
    global $server, $ran;
    if ($req->path === "/stats") {
        $stats = $server->stats();
        $res->end(sprintf("ran=%s abandoned=%d shed=%d", implode(",", $ran), $stats["abandoned"], $stats["shed"]));
        return;
    }
    $ran[] = $req->path;
    if ($req->path === "/busy") {
        $held = stream_socket_client(' . var_export("unix://$gatePath", true) . ');
        while (($line = fgets($held)) !== false) {
            fwrite($held, $line);
        }
    }
    $res->end("done " . $req->path);
}', ['concurrency' => 1, 'access_log' => $log], '$ran = [];');

function queued(int $port, string $requests): HttpTestConn
{
    $c = new HttpTestConn($port);
    $c->send($requests);
    return $c;
}

/* A round trip through /busy: the server handles its events in order, so it has read what came before. */
function sync($held): void
{
    fwrite($held, "sync\n");
    fgets($held);
}

/* The paths the access log says were dropped (499). */
function dropped(string $log): array
{
    $paths = [];
    foreach (file($log, FILE_IGNORE_NEW_LINES) as $line) {
        if (preg_match('#"GET (/\w+) HTTP/1.1" 499 0$#', $line, $m)) {
            $paths[] = $m[1];
        }
    }
    sort($paths);
    return $paths;
}

$get = static fn (string $path): string => "GET $path HTTP/1.1\r\nHost: x\r\n\r\n";
$busy = queued($srv->port, $get('/busy'));
$held = stream_socket_accept($gate, http_test_timeout(30));
$closed = queued($srv->port, $get('/closed'));
$half = queued($srv->port, $get('/half'));
$pipelined = queued($srv->port, $get('/p1') . $get('/p2'));
$late = queued($srv->port, $get('/l1'));
$stays = queued($srv->port, $get('/stays'));
sync($held);
// Arrives while /l1 is queued: it waits in the kernel, and /l1 stays queued. (Had it come
// with /l1, it would wait behind /l1 all the same, as /p2 does.)
$late->send($get('/l2'));
$closed->close();
stream_socket_shutdown($half->sock, STREAM_SHUT_WR);

// Dropped at once, not at their turn: /busy still holds the slot.
echo $half->closedWithin(30) ? "half-closed: closed without an answer\n" : "half-closed: still open\n";
// The access log is flushed every 0.2 s.
$paths = http_test_poll(fn () => count(dropped($log)) >= 2 ? dropped($log) : null) ?? dropped($log);
echo "499 while busy ran: ", implode(',', $paths), "\n";

fclose($held);
$r = $busy->response(30);
echo "busy: {$r['status']}\n";
foreach ([$pipelined, $pipelined, $late, $late, $stays] as $c) {
    $r = $c->response(30);
    echo "{$r['status']} {$r['body']}\n";
}
$r = http_request($srv->port, "GET /stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 30);
echo $r['body'], "\n";
http_report_stop($srv);
unlink($log);
fclose($gate);
unlink($gatePath);
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
