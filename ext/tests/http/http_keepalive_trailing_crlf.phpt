--TEST--
HTTP: empty lines before a request (a CRLF some clients send after a body) neither start a request nor end a connection's idleness: no 408, the keep-alive timeout applies, and a graceful stop closes the connection at once
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("got " . $req->body()); }',
    ['read_timeout' => 1.0, 'keepalive_timeout' => 30]);
$post = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab";

// The CRLF in the same write as the request, and on its own later.
$c = new HttpTestConn($srv->port);
$c->send("$post\r\n");
echo $c->response()['body'], "\n";
$c->send("\r\n\r\n");
// Past read_timeout: a request in progress would have had a 408 and a close by now.
usleep(1500000);
$r = [$c->sock];
$w = $e = null;
echo 'after read_timeout: ', stream_select($r, $w, $e, 0) === 0 ? 'nothing' : var_export(fread($c->sock, 100), true), "\n";
$c->send($post);
echo $c->response()['body'], "\n";

// A CRLF left behind, then a graceful stop: an idle connection closes at once.
$c->send("$post\r\n");
echo $c->response()['body'], "\n";
$t0 = microtime(true);
$srv->signal(SIGTERM);
var_dump($c->closedWithin(5));
/* Not at read_timeout (1 s) as a request in progress would be; slow builds are not timed. */
$late = microtime(true) - $t0 >= 0.6 && !http_test_valgrind() && !http_test_asan();
echo $late ? "closed late\n" : "closed at once\n";
/* Signaled already: the process ends by itself. */
echo "exit: {$srv->stop(0)['code']}\n";
?>
--EXPECT--
got ab
after read_timeout: nothing
got ab
got ab
bool(true)
closed at once
exit: 0
