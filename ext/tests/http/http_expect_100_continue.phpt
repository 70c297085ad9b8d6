--TEST--
HTTP: Expect: 100-continue gets an interim 100 before the body is sent
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("got " . $req->body()); }');
$c = new HttpTestConn($srv->port);
$c->send("PUT /u HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n");
/* The client waits for the 100 before sending the body. */
$interim = $c->response();
echo $interim['status'], ' ', $interim['reason'], "\n";
$c->send("hello world");
$r = $c->response();
echo $r['status'], ' ', $r['body'], "\n";
/* A real client: curl sends Expect: 100-continue for a large body and waits for the 100 before sending it. */
$big = str_repeat('x', 2 * 1024 * 1024);
$file = tempnam(sys_get_temp_dir(), 'rapier-expect');
file_put_contents($file, $big);
[$code, $out, $err] = http_curl(['-i', '-H', 'Expect: 100-continue', '--expect100-timeout', '10', '--data-binary', "@$file",
    "http://127.0.0.1:{$srv->port}/"]);
unlink($file);
echo $code, ' ', substr($out, 0, 25) === "HTTP/1.1 100 Continue\r\n\r\n" ? "interim seen" : "no interim: $err", "\n";
var_dump(str_ends_with($out, "got " . $big));
http_report_stop($srv);
?>
--EXPECT--
100 Continue
200 got hello world
0 interim seen
bool(true)
exit: 0
