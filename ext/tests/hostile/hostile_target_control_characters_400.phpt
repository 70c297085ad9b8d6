--TEST--
Hostile: a request target holding a control character (HT, FF, VT, DEL...) gets 400 and never reaches the handler
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/*
 * docs/http-parsing.md: "request target with a control character, NUL or
 * space inside: 400". A proxy that splits the request line on any
 * whitespace reads "GET /a\tb HTTP/1.1" as target "/a" and version "b".
 */
foreach ([0x01, 0x08, 0x09, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f] as $byte) {
    printf("0x%02x: %s\n", $byte, hostile_try($srv->port, "GET /a" . chr($byte) . "b HTTP/1.1\r\nHost: x\r\n\r\n"));
    $ctl->check(sprintf('0x%02x', $byte));
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
0x01: 400 Bad Request, closed
0x08: 400 Bad Request, closed
0x09: 400 Bad Request, closed
0x0b: 400 Bad Request, closed
0x0c: 400 Bad Request, closed
0x1b: 400 Bad Request, closed
0x1f: 400 Bad Request, closed
0x7f: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
