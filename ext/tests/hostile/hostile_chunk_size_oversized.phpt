--TEST--
Hostile: oversized, overflowing, signed or padded chunk sizes get 413 or 400 at once, before any chunk data is sent
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
$head = "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
/* Only the size line is sent (no data follows): an answer proves the size alone was judged. */
$cases = [
    '16 hex digits, 2^64 - 1' => "ffffffffffffffff\r\n",
    'one byte over max_body_size' => dechex((8 << 20) + 1) . "\r\n",
    '17 hex digits, overflowing' => "10000000000000000\r\n",
    'negative' => "-1\r\n",
    'a 0x prefix' => "0x10\r\n",
    'a space after the size' => "5 \r\n",
    'a space before the size' => " 5\r\n",
    'empty size' => "\r\n",
    'a bare LF after the size' => "5\n",
    '20,000 leading zeros' => str_repeat('0', 20000) . "5\r\n",
    '20,000 bytes of extension' => "5;" . str_repeat('e', 20000) . "\r\n",
];
foreach ($cases as $what => $line) {
    echo "$what: ", hostile_try($srv->port, $head . $line), "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
16 hex digits, 2^64 - 1: 413 Content Too Large, closed
one byte over max_body_size: 413 Content Too Large, closed
17 hex digits, overflowing: 400 Bad Request, closed
negative: 400 Bad Request, closed
a 0x prefix: 400 Bad Request, closed
a space after the size: 400 Bad Request, closed
a space before the size: 400 Bad Request, closed
empty size: 400 Bad Request, closed
a bare LF after the size: 400 Bad Request, closed
20,000 leading zeros: 400 Bad Request, closed
20,000 bytes of extension: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
