--TEST--
Hostile: trailer fields are held to the header field syntax (name a token, no bare CR or LF, no NUL): 400, never handled
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/* docs/http-parsing.md: trailer fields are "checked and counted, then discarded". */
$head = "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n";
$cases = [
    'empty name' => ": 1\r\n\r\n",
    'space inside the name' => "A B: 1\r\n\r\n",
    'space before the colon' => "A : 1\r\n\r\n",
    'non-token name' => "A@B: 1\r\n\r\n",
    'line without a colon' => "NoColon\r\n\r\n",
    'bare LF' => "T: 1\n\r\n",
    'bare CR' => "T: 1\rX: 2\r\n\r\n",
    'NUL in a value' => "T: 1\0\r\n\r\n",
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
empty name: 400 Bad Request, closed
space inside the name: 400 Bad Request, closed
space before the colon: 400 Bad Request, closed
non-token name: 400 Bad Request, closed
line without a colon: 400 Bad Request, closed
bare LF: 400 Bad Request, closed
bare CR: 400 Bad Request, closed
NUL in a value: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
