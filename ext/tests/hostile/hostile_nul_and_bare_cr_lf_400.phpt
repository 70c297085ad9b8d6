--TEST--
Hostile: NUL, DEL, bare CR and bare LF anywhere in the head get 400 and a close; others are served throughout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/* ext/tests/http sends an all-LF request and a NUL in the target; these are the other places. */
$cases = [
    'NUL before the request line' => "\0GET /attack HTTP/1.1\r\nHost: x\r\n\r\n",
    'NUL in a value' => "GET /attack HTTP/1.1\r\nHost: x\r\nX: a\0b\r\n\r\n",
    'NUL in a name' => "GET /attack HTTP/1.1\r\nHost: x\r\nX\0Y: 1\r\n\r\n",
    'DEL in a value' => "GET /attack HTTP/1.1\r\nHost: x\r\nX: a\x7fb\r\n\r\n",
    'bare CR ending the request line' => "GET /attack HTTP/1.1\rHost: x\r\n\r\n",
    'bare CR inside a value' => "GET /attack HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n",
    'bare CR ending a field' => "GET /attack HTTP/1.1\r\nHost: x\rX: 1\r\n\r\n",
    'bare LF ending one field' => "GET /attack HTTP/1.1\r\nHost: x\nX: 1\r\n\r\n",
    'bare LF ending the head' => "GET /attack HTTP/1.1\r\nHost: x\r\n\n",
    'bare LF before the request line' => "\nGET /attack HTTP/1.1\r\nHost: x\r\n\r\n",
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
NUL before the request line: 400 Bad Request, closed
NUL in a value: 400 Bad Request, closed
NUL in a name: 400 Bad Request, closed
DEL in a value: 400 Bad Request, closed
bare CR ending the request line: 400 Bad Request, closed
bare CR inside a value: 400 Bad Request, closed
bare CR ending a field: 400 Bad Request, closed
bare LF ending one field: 400 Bad Request, closed
bare LF ending the head: 400 Bad Request, closed
bare LF before the request line: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
