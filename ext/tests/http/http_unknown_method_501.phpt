--TEST--
HTTP: an unknown method gets 501; extension methods llhttp knows reach the handler
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("handled " . $req->method); }');
foreach (['FOO', 'get', 'PROPFIND', 'PATCH', 'OPTIONS'] as $m) {
    $r = http_request($srv->port, "$m / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    echo "$m: {$r['status']} {$r['reason']}", $r['status'] == 200 ? " {$r['body']}" : '', "\n";
}
http_report_stop($srv);
?>
--EXPECT--
FOO: 501 Not Implemented
get: 501 Not Implemented
PROPFIND: 200 OK handled PROPFIND
PATCH: 200 OK handled PATCH
OPTIONS: 200 OK handled OPTIONS
exit: 0
