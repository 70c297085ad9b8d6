--TEST--
Hostile: malformed header fields get 400 and a close, never reach the handler; others are served throughout
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/* Cases ext/tests/http does not already send (obs-fold, no Host and bare LF are there). */
$cases = [
    'space before the colon' => "Host : x\r\n",
    'space inside a name' => "Host: x\r\nX Y: 1\r\n",
    'empty name' => "Host: x\r\n: 1\r\n",
    'non-token name' => "Host: x\r\nX@Y: 1\r\n",
    'obs-text in a name' => "Host: x\r\nX\xff: 1\r\n",
    'line without a colon' => "Host: x\r\nNoColon\r\n",
    'control character in a value' => "Host: x\r\nX: a\x01b\r\n",
    'escape in a value' => "Host: x\r\nX: a\x1b[2Jb\r\n",
    'two Host fields' => "Host: x\r\nHost: y\r\n",
    'two Host fields in HTTP/1.0' => "Host: x\r\nHost: x\r\n",
];
foreach ($cases as $what => $fields) {
    $version = str_contains($what, '1.0') ? 'HTTP/1.0' : 'HTTP/1.1';
    echo "$what: ", hostile_try($srv->port, "GET /attack $version\r\n{$fields}\r\n"), "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
space before the colon: 400 Bad Request, closed
space inside a name: 400 Bad Request, closed
empty name: 400 Bad Request, closed
non-token name: 400 Bad Request, closed
obs-text in a name: 400 Bad Request, closed
line without a colon: 400 Bad Request, closed
control character in a value: 400 Bad Request, closed
escape in a value: 400 Bad Request, closed
two Host fields: 400 Bad Request, closed
two Host fields in HTTP/1.0: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
