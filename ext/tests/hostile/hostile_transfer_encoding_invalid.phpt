--TEST--
Hostile: Transfer-Encoding not ending in exactly one chunked gets 400, other codings before chunked 501; the body is never read as a request
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
$smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
/* ext/tests/http covers "chunked, identity" and TE in HTTP/1.0. */
$cases = [
    'gzip alone' => ['Transfer-Encoding: gzip'],
    'chunked, gzip' => ['Transfer-Encoding: chunked, gzip'],
    'chunked with a parameter' => ['Transfer-Encoding: chunked;q=1'],
    'empty' => ['Transfer-Encoding: '],
    'chunked twice in one field' => ['Transfer-Encoding: chunked, chunked'],
    'chunked in two fields' => ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'],
    'gzip, chunked' => ['Transfer-Encoding: gzip, chunked'],
    'gzip then chunked in two fields' => ['Transfer-Encoding: gzip', 'Transfer-Encoding: chunked'],
];
foreach ($cases as $what => $fields) {
    $c = new HttpTestConn($srv->port);
    $c->send("POST /attack HTTP/1.1\r\nHost: x\r\n" . implode("\r\n", $fields) . "\r\n\r\n5\r\nhello\r\n0\r\n\r\n$smuggled");
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
gzip alone: 400 Bad Request, closed
chunked, gzip: 400 Bad Request, closed
chunked with a parameter: 400 Bad Request, closed
empty: 400 Bad Request, closed
chunked twice in one field: 400 Bad Request, closed
chunked in two fields: 400 Bad Request, closed
gzip, chunked: 501 Not Implemented, closed
gzip then chunked in two fields: 501 Not Implemented, closed
control: all answered
reached the handler: []
exit: 0
