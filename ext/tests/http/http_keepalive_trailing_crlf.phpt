--TEST--
HTTP: empty lines before a request (a CRLF some clients send after a body) neither start a request nor end a connection's idleness: no 408, the keep-alive timeout applies, and a graceful stop closes the connection at once
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("got " . $req->body()); }',
    ['read_timeout' => 0.5, 'keepalive_timeout' => 30]);
$post = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab";

// The CRLF in the same write as the request, and on its own later.
$c = new HttpTestConn($srv->port);
$c->send("$post\r\n");
echo $c->response()['body'], "\n";
$c->send("\r\n\r\n");
// Past read_timeout: a request in progress would get a 408 now.
echo 'after read_timeout: ', var_export($c->readSome(1.0), true), "\n";
$c->send($post);
echo $c->response()['body'], "\n";

// A CRLF left behind, then a graceful stop: an idle connection closes at once.
$c->send("$post\r\n");
echo $c->response()['body'], "\n";
$t0 = microtime(true);
$srv->signal(SIGTERM);
var_dump($c->closedWithin(5));
echo microtime(true) - $t0 < 0.4 ? "closed at once\n" : "closed late\n";
http_report_stop($srv);
?>
--EXPECT--
got ab
after read_timeout: ''
got ab
got ab
bool(true)
closed at once
exit: 0
