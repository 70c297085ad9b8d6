--TEST--
HTTP/2 streams: ten requests on one connection run their handlers at once and are answered as each finishes; the server's SETTINGS carry http2_max_concurrent_streams; a client resetting a stream while its handler runs makes the handler's next write return false and the connection goes on; a queued stream reset before its turn never runs (499 in the access log, as for HTTP/1.1); the stream reset after its head is logged once, with the status sent and the bytes that went out, as HTTP/1.1's
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/h2.inc';
$log = tempnam(sys_get_temp_dir(), 'h2log');
$srv = http_server_start('function ($req, $res) {
    static $inFlight = 0, $max = 0;
    switch ($req->path) {
        case "/slow":
            $inFlight++;
            $max = max($max, $inFlight);
            Rapier\Coroutine::sleep(0.2 + 0.01 * (int) $req->query["n"]);
            $inFlight--;
            $res->json(["n" => (int) $req->query["n"], "max" => $max]);
            return;
        case "/reset-me":
            $first = $res->write("first");
            echo "wrote first: ", var_export($first, true), "\n";
            Rapier\Coroutine::sleep(0.3);
            echo "after reset: ", var_export($res->write("second"), true), " writable ", var_export($res->isWritable(), true), "\n";
            return;
        case "/hold":
            echo "holding\n";
            Rapier\Coroutine::sleep(0.5);
            $res->end("held");
            return;
    }
    echo "ran ", $req->path, "\n";
    $res->end("hello " . $req->path);
}', ['http2' => true, 'http2_max_concurrent_streams' => 16, 'access_log' => $log]);

$c = new H2TestConn($srv->port);
$settings = null;
while (($f = $c->frame()) !== null) {
    if ($f['type'] === H2_SETTINGS && !($f['flags'] & H2_ACK)) {
        $settings = $f['payload'];
        break;
    }
}
for ($i = 0; $i + 6 <= strlen($settings); $i += 6) {
    ['id' => $id, 'value' => $value] = unpack('nid/Nvalue', substr($settings, $i, 6));
    if ($id === 3) {
        echo "SETTINGS_MAX_CONCURRENT_STREAMS $value\n";
    }
}
for ($n = 0; $n < 10; $n++) {
    $c->request(1 + 2 * $n, 'GET', "/slow?n=$n");
}
$bodies = [];
$order = [];
foreach ($c->frames(function ($f) use (&$bodies, &$order) {
    if ($f['type'] === H2_DATA) {
        $bodies[$f['stream']] = ($bodies[$f['stream']] ?? '') . $f['payload'];
        if ($f['flags'] & H2_END_STREAM) {
            $order[] = json_decode($bodies[$f['stream']], true)['n'];
        }
    }
    return count($order) === 10;
}) as $f) {
}
echo "answered in order of finishing: ", json_encode($order), "\n";
echo "handlers at once: ", json_decode($bodies[19], true)['max'], "\n";

/* Reset while the handler runs. */
$c->request(21, 'GET', '/reset-me');
$frames = $c->frames(fn ($f) => $f['stream'] === 21 && $f['type'] === H2_DATA);
echo "got ", h2_body($frames), "\n";
$c->send(h2_frame(H2_RST_STREAM, 0, 21, pack('N', 8)));
$srv->waitFor("after reset", 5);
$c->request(23, 'GET', '/after');
echo "same connection: ", h2_body($c->stream(23)), "\n";
$c->close();

$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'];

/* With one handler slot, a queued stream whose client resets it never runs. */
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/hold") {
        echo "holding\n";
        Rapier\Coroutine::sleep(0.5);
    } else {
        echo "ran ", $req->path, "\n";
    }
    $res->end("done " . $req->path);
}', ['http2' => true, 'concurrency' => 1, 'access_log' => $log]);
$c = new H2TestConn($srv->port);
$c->request(1, 'GET', '/hold');
$srv->waitFor("holding", 5);
$c->request(3, 'GET', '/queued');
usleep(50000);
$c->send(h2_frame(H2_RST_STREAM, 0, 3, pack('N', 8)));
$c->request(5, 'GET', '/next');
echo h2_body($c->stream(1)), ' / ', h2_body($c->stream(5)), "\n";
$c->close();
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'];
foreach (file($log) as $line) {
    if (preg_match('~"GET (/(?:queued|next|hold|reset-me)) HTTP/2.0" (\d+) (\d+)~', $line, $m)) {
        echo "$m[1] $m[2] $m[3]\n";
    }
}
unlink($log);
?>
--EXPECT--
SETTINGS_MAX_CONCURRENT_STREAMS 16
answered in order of finishing: [0,1,2,3,4,5,6,7,8,9]
handlers at once: 10
got first
same connection: hello /after
exit: 0
ready
wrote first: true
after reset: false writable false
ran /after
start() returned
done /hold / done /next
exit: 0
ready
holding
ran /next
start() returned
/reset-me 200 5
/queued 499 0
/hold 200 10
/next 200 10
