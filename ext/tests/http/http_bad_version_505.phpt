--TEST--
HTTP: unsupported HTTP versions get 505
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }');
foreach (['HTTP/2.0', 'HTTP/1.2', 'HTTP/3.0', 'HTTP/0.9'] as $v) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET / $v\r\nHost: x\r\n\r\n");
    $r = $c->response();
    echo "$v: {$r['status']} {$r['reason']}", $c->closedWithin(3) ? ', closed' : '', "\n";
}
http_report_stop($srv);
?>
--EXPECT--
HTTP/2.0: 505 HTTP Version Not Supported, closed
HTTP/1.2: 505 HTTP Version Not Supported, closed
HTTP/3.0: 505 HTTP Version Not Supported, closed
HTTP/0.9: 505 HTTP Version Not Supported, closed
exit: 0
