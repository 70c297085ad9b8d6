--TEST--
Hostile: 50 clients sending their bodies one byte per second (declared and chunked) get 408 at read_timeout; others are served throughout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['read_timeout' => 2.5]);
$ctl = new HostileControl($srv->port);
$slow = [];
for ($i = 0; $i < 50; $i++) {
    $c = new HttpTestConn($srv->port);
    /* The head arrives whole at once; only the body trickles. */
    $c->send($i % 2 ? "POST /attack HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
        : "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n");
    $slow[] = $c;
}
$t0 = microtime(true);
for ($second = 0; $second < 4; $second++) {
    foreach ($slow as $c) {
        $c->send('b');
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
