--TEST--
Hostile: 20 clients that never read their 64 MiB responses do not block others, and are freed after write_timeout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['write_timeout' => 1]);
$ctl = new HostileControl($srv->port);
$stuck = [];
for ($i = 0; $i < 20; $i++) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET /stream?mib=64 HTTP/1.1\r\nHost: x\r\n\r\n");
    $stuck[] = $c;
}
/* All 20 handlers wait on full sockets (the control request is the 21st); others are still answered. */
$stats = $ctl->waitStats(fn($s) => $s['handling'] >= 21, 5);
echo "stuck handlers: ", $stats['handling'] - 1, "\n";
$ctl->check('while stuck');
/* write_timeout passes: every stuck connection is closed and its handler ends. */
$stats = $ctl->waitStats(fn($s) => $s['connections'] == 1 && $s['handling'] == 1, 10);
echo "connections left: {$stats['connections']}, handlers left: ", $stats['handling'] - 1, "\n";
$closed = 0;
foreach ($stuck as $c) {
    $closed += $c->closedWithin(5);
}
echo "seen closed by the clients: $closed\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
stuck handlers: 20
connections left: 1, handlers left: 0
seen closed by the clients: 20
control: all answered
exit: 0
