--TEST--
Hostile: clients that close in the middle of a large streamed response are freed at once, their handlers end; others are served
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
/* A write_timeout far away: only the close itself can free these connections in time. */
$srv = hostile_server(['write_timeout' => 60]);
$ctl = new HostileControl($srv->port);
$gone = [];
for ($i = 0; $i < 10; $i++) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET /stream?mib=64 HTTP/1.1\r\nHost: x\r\n\r\n");
    $c->readSome();
    $gone[] = $c;
}
foreach ($gone as $c) {
    $c->close();
}
/* The control request is the one handler left. */
$stats = $ctl->waitStats(fn($s) => $s['connections'] == 1 && $s['handling'] == 1, 5);
echo "connections left: {$stats['connections']}, handlers left: ", $stats['handling'] - 1, "\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
connections left: 1, handlers left: 0
control: all answered
exit: 0
