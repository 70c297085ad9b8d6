--TEST--
HTTP: clients that reset the connection right after a malformed request or an Expect: 100-continue request leave the server unharmed (the answer's failed write closes the connection under the code that wrote it)
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }', ['read_timeout' => 5]);

function send_and_reset(int $port, string $bytes): void
{
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_connect($s, '127.0.0.1', $port);
    socket_write($s, $bytes);
    // SO_LINGER 0: close() sends a reset, so the server's answer fails to write.
    socket_set_option($s, SOL_SOCKET, SO_LINGER, ['l_onoff' => 1, 'l_linger' => 0]);
    socket_close($s);
}

$inputs = [
    "GARBAGE\x01 / HTTP/1.1\r\n\r\n",
    "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n",
    "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n--b\r\n",
];
foreach ($inputs as $bytes) {
    for ($i = 0; $i < 40; $i++) {
        send_and_reset($srv->port, $bytes);
    }
}
echo 'still serving: ', http_get($srv->port, '/')['body'], "\n";
// The interim answer still comes for a client that reads it.
$c = new HttpTestConn($srv->port);
$c->send("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
echo trim($c->readSome()), "\n";
$c->send("ab");
echo $c->response()['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
still serving: ok
HTTP/1.1 100 Continue
ok
exit: 0
