--TEST--
HTTP: at max_connections the server stops accepting; a waiting client is served once a connection closes
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("served " . $req->path); }', ['max_connections' => 1]);
$first = new HttpTestConn($srv->port);
$first->send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
echo $first->response()['body'], "\n";
/* The kernel completes the handshake (backlog), but the server does not accept it yet. */
$second = new HttpTestConn($srv->port);
$second->send("GET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
var_dump($second->response(0.5));
$first->close();
echo $second->response(3)['body'], "\n";
echo http_get($srv->port, '/third')['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
served /first
NULL
served /second
served /third
exit: 0
