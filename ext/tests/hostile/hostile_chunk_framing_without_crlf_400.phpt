--TEST--
Hostile: a chunk-size line or chunk data ended by anything but CRLF gets 400 and never reaches the handler
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/*
 * docs/http-parsing.md: "chunk data not followed by CRLF, chunk lines ended
 * by bare LF: 400". llhttp 8.1 in its loose mode skips the two bytes after
 * chunk data, and the byte after the CR of a size line, unseen: a front end
 * that reads those bytes otherwise and this server would split the stream
 * differently.
 */
$head = "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
$cases = [
    'two other bytes' => "5\r\nhelloXX0\r\n\r\n",
    'CR and another byte' => "5\r\nhello\rX0\r\n\r\n",
    'LF and another byte' => "5\r\nhello\nX0\r\n\r\n",
    'another byte and LF' => "5\r\nhelloX\n0\r\n\r\n",
    'size line: CR and another byte' => "5\rXhello\r\n0\r\n\r\n",
    'last chunk: CR and another byte' => "5\r\nhello\r\n0\rX\r\n\r\n",
];
foreach ($cases as $what => $body) {
    echo "$what: ", hostile_try($srv->port, $head . $body), "\n";
    /* The same bytes one by one: the answer must not depend on where a read ends. */
    $c = new HttpTestConn($srv->port);
    foreach (str_split($head . $body) as $byte) {
        $c->send($byte);
    }
    echo "  byte by byte: ", hostile_outcome($c), "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
two other bytes: 400 Bad Request, closed
  byte by byte: 400 Bad Request, closed
CR and another byte: 400 Bad Request, closed
  byte by byte: 400 Bad Request, closed
LF and another byte: 400 Bad Request, closed
  byte by byte: 400 Bad Request, closed
another byte and LF: 400 Bad Request, closed
  byte by byte: 400 Bad Request, closed
size line: CR and another byte: 400 Bad Request, closed
  byte by byte: 400 Bad Request, closed
last chunk: CR and another byte: 400 Bad Request, closed
  byte by byte: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
