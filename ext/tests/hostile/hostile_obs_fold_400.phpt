--TEST--
Hostile: obs-fold with a tab, on the first field, or in the trailer section gets 400 and never reaches the handler
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/* ext/tests/http sends a space-folded field after Host; these are the other shapes. */
$cases = [
    'tab-folded value' => "GET /attack HTTP/1.1\r\nHost: x\r\nX: a\r\n\tb\r\n\r\n",
    'first field folded' => "GET /attack HTTP/1.1\r\n Host: x\r\n\r\n",
    'folded Transfer-Encoding' => "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
    'folded trailer' => "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\nT: 1\r\n 2\r\n\r\n",
];
foreach ($cases as $what => $raw) {
    echo "$what: ", hostile_try($srv->port, $raw), "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
tab-folded value: 400 Bad Request, closed
first field folded: 400 Bad Request, closed
folded Transfer-Encoding: 400 Bad Request, closed
folded trailer: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
