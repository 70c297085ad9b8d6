--TEST--
Hostile: 20,000 pipelined requests (600 KB in one stream) are all answered in order, and other connections are served during the flood
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip 20,000 requests take minutes under valgrind; http_pipelined_flood runs the same path there'); ?>
--FILE--
<?php
require __DIR__ . '/hostile.inc';
const FLOOD = 20000;
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
$wire = '';
for ($i = 1; $i <= FLOOD; $i++) {
    $wire .= "GET /ok?n=$i HTTP/1.1\r\nHost: x\r\n\r\n";
}
$c = new HttpTestConn($srv->port);
stream_set_blocking($c->sock, false);
/* Writing and reading at once: a client that only writes would stall once the answers fill the socket. */
$in = '';
$count = $checks = 0;
$wrong = [];
$deadline = microtime(true) + http_test_timeout(30);
while ($count < FLOOD && microtime(true) < $deadline) {
    if ($wire !== '' && ($n = @fwrite($c->sock, $wire)) > 0) {
        $wire = substr($wire, $n);
    }
    $r = [$c->sock];
    $w = $e = null;
    if (@stream_select($r, $w, $e, 0, 20000) > 0) {
        $chunk = fread($c->sock, 1 << 20);
        if ($chunk === '' || $chunk === false) {
            break;
        }
        $in .= $chunk;
    }
    /* Each answer is "ok <n>" with a Content-Length: parse what is complete. */
    while (($end = strpos($in, "\r\n\r\n")) !== false
            && preg_match('~Content-Length: (\d+)~', substr($in, 0, $end), $m) && strlen($in) >= $end + 4 + $m[1]) {
        $status = (int) substr($in, 9, 3);
        $body = substr($in, $end + 4, (int) $m[1]);
        $in = substr($in, $end + 4 + (int) $m[1]);
        if ($status !== 200 || $body !== 'ok ' . ++$count) {
            $wrong[] = $count;
        }
    }
    /* Other clients, while the flood is only part done. */
    if ($checks < 4 && $count > ($checks + 1) * FLOOD / 5) {
        $ctl->check('flood ' . ++$checks);
    }
}
echo "answered: $count, out of order or wrong: ", json_encode(array_slice($wrong, 0, 10)), "\n";
echo "checks during the flood: $checks\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
answered: 20000, out of order or wrong: []
checks during the flood: 4
control: all answered
exit: 0
