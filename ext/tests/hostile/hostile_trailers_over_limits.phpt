--TEST--
Hostile: a trailer section over max_header_count or max_header_size gets 431; one within the limits is accepted and dropped
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['max_header_size' => 1024, 'max_header_count' => 8]);
$ctl = new HostileControl($srv->port);
$head = "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n";
$cases = [
    'two trailer fields' => "A: 1\r\nB: 2\r\n\r\n",
    '8 trailer fields' => str_repeat("T: 1\r\n", 8) . "\r\n",
    '9 trailer fields' => str_repeat("T: 1\r\n", 9) . "\r\n",
    'a 1,100-byte trailer' => "T: " . str_repeat('t', 1100) . "\r\n\r\n",
    'a trailer that never ends' => "T: " . str_repeat('t', 4000),
];
foreach ($cases as $what => $trailers) {
    echo "$what: ", hostile_try($srv->port, $head . $trailers), "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
two trailer fields: 200 OK, still open
8 trailer fields: 200 OK, still open
9 trailer fields: 431 Request Header Fields Too Large, closed
a 1,100-byte trailer: 431 Request Header Fields Too Large, closed
a trailer that never ends: 431 Request Header Fields Too Large, closed
control: all answered
reached the handler: ["handled POST \/attack","handled POST \/attack"]
exit: 0
