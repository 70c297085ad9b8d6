--TEST--
Hostile: a client that pipelines 100,000 requests and never reads the answers is freed after write_timeout; the server does not buffer the flood
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['write_timeout' => 1]);
$ctl = new HostileControl($srv->port);
$before = $ctl->stats()['memory'];
$c = new HttpTestConn($srv->port);
stream_set_blocking($c->sock, false);
$wire = str_repeat("GET /bytes?n=100 HTTP/1.1\r\nHost: x\r\n\r\n", 100000);
for ($deadline = microtime(true) + 3; $wire !== '' && microtime(true) < $deadline;) {
    $n = @fwrite($c->sock, $wire);
    $n > 0 ? $wire = substr($wire, $n) : usleep(10000);
}
$ctl->check('flood sent');
/* Reading stops while a request is handled, so the rest of the flood waits in the kernel, not in the server. */
$stats = $ctl->waitStats(fn($s) => $s['connections'] == 1, 10);
echo "connections left: {$stats['connections']}\n";
$grown = $stats['memory'] - $before;
echo "server memory grew by less than 4 MiB: ", var_export($grown < (4 << 20), true), "\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
connections left: 1
server memory grew by less than 4 MiB: true
control: all answered
exit: 0
