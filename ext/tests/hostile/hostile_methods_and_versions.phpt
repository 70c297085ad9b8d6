--TEST--
Hostile: invalid methods get 501 (a token) or 400, invalid versions 505 or 400, and a close; others are served throughout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/* Beyond ext/tests/http (FOO, get, TLS bytes, a leading space; HTTP/2.0, 1.2, 3.0, 0.9, FOO/1.1, bare LF). */
$cases = [
    'unknown method sharing a prefix' => "GETT /attack HTTP/1.1\r\nHost: x\r\n\r\n",
    'lower-case POST' => "post /attack HTTP/1.1\r\nHost: x\r\n\r\n",
    '20,000-byte method' => str_repeat('A', 20000) . " /attack HTTP/1.1\r\nHost: x\r\n\r\n",
    'space inside the method' => "G ET /attack HTTP/1.1\r\nHost: x\r\n\r\n",
    'tab after the method' => "GET\t/attack HTTP/1.1\r\nHost: x\r\n\r\n",
    'NUL inside the method' => "G\0T /attack HTTP/1.1\r\nHost: x\r\n\r\n",
    'no target' => "GET HTTP/1.1\r\nHost: x\r\n\r\n",
    'HTTP/11.1' => "GET /attack HTTP/11.1\r\nHost: x\r\n\r\n",
    'http/1.1 in lower case' => "GET /attack http/1.1\r\nHost: x\r\n\r\n",
    'HTTPS/1.1' => "GET /attack HTTPS/1.1\r\nHost: x\r\n\r\n",
    'space after the version' => "GET /attack HTTP/1.1 \r\nHost: x\r\n\r\n",
    'CR CR LF after the version' => "GET /attack HTTP/1.1\r\r\nHost: x\r\n\r\n",
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
unknown method sharing a prefix: 501 Not Implemented, closed
lower-case POST: 501 Not Implemented, closed
20,000-byte method: 501 Not Implemented, closed
space inside the method: 400 Bad Request, closed
tab after the method: 400 Bad Request, closed
NUL inside the method: 400 Bad Request, closed
no target: 400 Bad Request, closed
HTTP/11.1: 505 HTTP Version Not Supported, closed
http/1.1 in lower case: 400 Bad Request, closed
HTTPS/1.1: 400 Bad Request, closed
space after the version: 400 Bad Request, closed
CR CR LF after the version: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
