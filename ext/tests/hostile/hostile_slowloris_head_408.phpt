--TEST--
Hostile: 50 slowloris clients sending their heads one byte per second get 408 at read_timeout, while others are served every second
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['read_timeout' => 2.5]);
$ctl = new HostileControl($srv->port);
$head = "GET /attack HTTP/1.1\r\nHost: x\r\nX-Slow: " . str_repeat('s', 100) . "\r\n\r\n";
$slow = [];
for ($i = 0; $i < 50; $i++) {
    $slow[] = new HttpTestConn($srv->port);
}
/* One byte per second on every connection; the deadline is not pushed back by trickling. */
$t0 = microtime(true);
for ($second = 0; $second < 4; $second++) {
    foreach ($slow as $c) {
        $c->send($head[$second]);
    }
    $ctl->check("second $second");
    /* Under valgrind a check may take longer than the second itself. */
    if (($wait = $t0 + $second + 1 - microtime(true)) > 0) {
        usleep((int) ($wait * 1e6));
    }
}
$outcomes = array_count_values(array_map(fn($c) => hostile_outcome($c, 3), $slow));
ksort($outcomes);
echo json_encode($outcomes), "\n";
$ctl->check('end');
echo $ctl->report(), "\n";
echo "connections left: ", $ctl->stats()['connections'], "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
{"408 Request Timeout, closed":50}
control: all answered
connections left: 1
reached the handler: []
exit: 0
