--TEST--
Hostile: a CONNECT request with a body gets 400; its body is never read as a second request (smuggling)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
/*
 * CONNECT has no content (RFC 9110 9.3.6). llhttp ends a CONNECT request at
 * its head, so bytes a proxy in front skips as the declared body would be
 * parsed here as the next request on the connection.
 */
$smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
$cases = [
    'Content-Length' => "Content-Length: " . strlen($smuggled) . "\r\n\r\n$smuggled",
    'chunked' => "Transfer-Encoding: chunked\r\n\r\n" . dechex(strlen($smuggled)) . "\r\n$smuggled\r\n0\r\n\r\n",
];
foreach ($cases as $what => $rest) {
    $c = new HttpTestConn($srv->port);
    $c->send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n$rest");
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
Content-Length: 400 Bad Request, closed
chunked: 400 Bad Request, closed
control: all answered
reached the handler: []
exit: 0
