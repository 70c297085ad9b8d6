--TEST--
HTTP: a request target over 8 KiB gets 414; max_body_size 0 refuses any body with 413
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok " . strlen($req->uri)); }', ['max_body_size' => 0]);
echo http_get($srv->port, '/' . str_repeat('u', 8191))['body'], "\n";
$r = http_get($srv->port, '/' . str_repeat('u', 8192));
echo "{$r['status']} {$r['reason']}\n";
echo http_request($srv->port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")['body'], "\n";
$r = http_request($srv->port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: close\r\n\r\na");
echo "{$r['status']} {$r['reason']}\n";
http_report_stop($srv);
?>
--EXPECT--
ok 8192
414 URI Too Long
ok 1
413 Content Too Large
exit: 0
