--TEST--
Hostile: a request cut short is never handled: closed without an answer when the client half-closes, 408 after read_timeout when it stays
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['read_timeout' => 1]);
$ctl = new HostileControl($srv->port);
$cases = [
    'head cut short' => "POST /attack HTTP/1.1\r\nHost: x\r\nContent-Le",
    'Content-Length body cut short' => "POST /attack HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" . str_repeat('a', 60),
    'chunk data cut short' => "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc",
    'no last chunk' => "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
    'trailers not ended' => "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n",
];
foreach ($cases as $what => $raw) {
    /* The client shuts down its sending side: the server sees the end of the stream. */
    $c = new HttpTestConn($srv->port);
    $c->send($raw);
    stream_socket_shutdown($c->sock, STREAM_SHUT_WR);
    echo "$what, half-closed: ", hostile_outcome($c), "\n";
    /* The client keeps the connection open and sends nothing more. */
    $c = new HttpTestConn($srv->port);
    $c->send($raw);
    echo "$what, kept open: ", hostile_outcome($c), "\n";
    $ctl->check($what);
}
/* Expect: 100-continue, then no body. */
$c = new HttpTestConn($srv->port);
$c->send("PUT /attack HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n");
$r = $c->response();
echo "100-continue without a body: {$r['status']}, then ", hostile_outcome($c), "\n";
$ctl->check('100-continue');
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
head cut short, half-closed: no response, closed
head cut short, kept open: 408 Request Timeout, closed
Content-Length body cut short, half-closed: no response, closed
Content-Length body cut short, kept open: 408 Request Timeout, closed
chunk data cut short, half-closed: no response, closed
chunk data cut short, kept open: 408 Request Timeout, closed
no last chunk, half-closed: no response, closed
no last chunk, kept open: 408 Request Timeout, closed
trailers not ended, half-closed: no response, closed
trailers not ended, kept open: 408 Request Timeout, closed
100-continue without a body: 100, then 408 Request Timeout, closed
control: all answered
reached the handler: []
exit: 0
