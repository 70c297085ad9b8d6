--TEST--
Hostile: malformed, listed, signed or overflowing Content-Length gets 400 and a close; the body is never read as a request
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
$smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
/* ext/tests/http covers CL with TE, "5" twice and "-1"; these are the other shapes. */
$cases = [
    'a list' => ['Content-Length: 3, 3'],
    'two different values' => ['Content-Length: 5', 'Content-Length: 6'],
    'a plus sign' => ['Content-Length: +5'],
    'minus zero' => ['Content-Length: -0'],
    'empty' => ['Content-Length: '],
    'hexadecimal' => ['Content-Length: 0x10'],
    'an exponent' => ['Content-Length: 1e3'],
    'a space inside' => ['Content-Length: 1 0'],
    'a trailing comma' => ['Content-Length: 5,'],
    '2^64' => ['Content-Length: 18446744073709551616'],
    '23 digits' => ['Content-Length: 99999999999999999999999'],
];
foreach ($cases as $what => $fields) {
    $c = new HttpTestConn($srv->port);
    $c->send("POST /attack HTTP/1.1\r\nHost: x\r\n" . implode("\r\n", $fields) . "\r\n\r\nhello$smuggled");
    $all = $c->readAll(3);
    preg_match_all('~HTTP/1\.1 (\d{3} [^\r]*)\r\n~', $all, $m);
    echo "$what: ", implode(', ', $m[1]), $c->eof ? ', closed' : ', still open', "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
a list: 400 Bad Request, closed
two different values: 400 Bad Request, closed
a plus sign: 400 Bad Request, closed
minus zero: 400 Bad Request, closed
empty: 400 Bad Request, closed
hexadecimal: 400 Bad Request, closed
an exponent: 400 Bad Request, closed
a space inside: 400 Bad Request, closed
a trailing comma: 400 Bad Request, closed
2^64: 400 Bad Request, closed
23 digits: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
