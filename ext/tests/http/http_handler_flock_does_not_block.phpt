--TEST--
HTTP: handlers of one process that take one file lock (flock()) and hold it across a wait take turns with each other and with handlers writing that file with file_put_contents(LOCK_EX): none blocks the worker, and the lock has one holder at a time
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * Each /lock request opens the file itself (two fopen()s are two holders
 * to flock(), even in one process) and holds the lock across a sleep. A
 * flock() that blocked the worker would never let the holder wake up to
 * unlock: the requests would go unanswered. So would a /put, whose
 * file_put_contents() takes the lock inside PHP's own code.
 */
$lock_file = tempnam(sys_get_temp_dir(), 'rapier-flock-');
$srv = http_server_start('function ($req, $res) use ($lock_file) {
    global $holding, $most, $waiting, $most_waiting;
    if ($req->path === "/stats") {
        $res->end("most holders at once: $most, most waiting at once: $most_waiting");
        return;
    }
    if ($req->path === "/put") {
        $res->end("wrote " . file_put_contents($lock_file, "put;", FILE_APPEND | LOCK_EX));
        return;
    }
    $fp = fopen($lock_file, "r+");
    $most_waiting = max($most_waiting, ++$waiting);
    flock($fp, LOCK_EX);
    $waiting--;
    $most = max($most, ++$holding);
    usleep(20000);
    $holding--;
    flock($fp, LOCK_UN);
    $res->end("served");
}', [], '$lock_file = ' . var_export($lock_file, true) . '; $holding = $most = $waiting = $most_waiting = 0;');
$conns = [];
for ($i = 0; $i < 8; $i++) {
    $conns[$i] = new HttpTestConn($srv->port);
    $conns[$i]->send(sprintf("GET /%s HTTP/1.1\r\nHost: x\r\n\r\n", $i % 3 === 1 ? 'put' : 'lock'));
}
foreach ($conns as $i => $conn) {
    $r = $conn->response(http_test_timeout(20));
    echo "request $i: ", $r['body'] ?? 'no answer', "\n";
}
echo http_get($srv->port, '/stats')['body'] ?? 'no answer', "\n";
http_report_stop($srv);
unlink($lock_file);
?>
--EXPECTF--
request 0: served
request 1: wrote 4
request 2: served
request 3: served
request 4: wrote 4
request 5: served
request 6: served
request 7: wrote 4
most holders at once: 1, most waiting at once: %r[2-5]%r
exit: 0
