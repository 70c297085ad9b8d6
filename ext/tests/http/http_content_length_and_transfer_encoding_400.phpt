--TEST--
HTTP: Content-Length with Transfer-Encoding (request smuggling) gets 400 and the body is never taken as a request
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("handled " . $req->method . " " . $req->path); }');
$smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
$cases = [
    "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n$smuggled",
    "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 40\r\n\r\n0\r\n\r\n$smuggled",
    "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello$smuggled",
    "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n$smuggled",
    "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n$smuggled",
    "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n$smuggled",
];
foreach ($cases as $raw) {
    $c = new HttpTestConn($srv->port);
    $c->send($raw);
    $all = $c->readAll(3);
    preg_match_all('~^HTTP/1\.1 (\d+)~m', $all, $m);
    echo json_encode(substr($raw, 0, strpos($raw, "\r\n\r\n"))), ': ', implode(',', $m[1]),
        str_contains($all, 'smuggled') ? ' SMUGGLED' : '', $c->eof ? ', closed' : '', "\n";
}
http_report_stop($srv);
?>
--EXPECT--
"POST \/ HTTP\/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked": 400, closed
"POST \/ HTTP\/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 40": 400, closed
"POST \/ HTTP\/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5": 400, closed
"POST \/ HTTP\/1.1\r\nHost: x\r\nContent-Length: -1": 400, closed
"POST \/ HTTP\/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity": 400, closed
"POST \/ HTTP\/1.0\r\nTransfer-Encoding: chunked": 400, closed
exit: 0
