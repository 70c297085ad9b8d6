--TEST--
HTTP: tcp_keepalive probes a silent peer, so a handler waiting on a client that vanished without a FIN or RST (its host gone) learns of it; without it, the handler would wait for good
--EXTENSIONS--
rapier
sockets
--SKIPIF--
<?php
/* The client vanishes by closing its socket in repair mode (TCP_REPAIR), which sends nothing: that takes CAP_NET_ADMIN. */
$s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
if (!@socket_set_option($s, SOL_TCP, 19, 1)) die('skip TCP_REPAIR needs CAP_NET_ADMIN');
--FILE--
<?php
require __DIR__ . '/server.inc';
$handler = 'function ($req, $res) {
    if ($req->path === "/state") {
        $res->end(($GLOBALS["state"] ?? "idle") . "\n");
        return;
    }
    $req->setBodyTimeout(null);
    $GLOBALS["state"] = "waiting";
    try {
        $GLOBALS["state"] = "read " . strlen($req->body());
    } catch (Rapier\Http\BodyException $e) {
        $GLOBALS["state"] = $e->getCode() . ": " . $e->getMessage();
    }
}';
/* A client whose handler waits for its body, then gone: the socket closed in repair mode sends no FIN or RST. */
$vanish = function (int $port): void {
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_connect($s, '127.0.0.1', $port);
    socket_write($s, "PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\npart");
    echo "handler: ", http_test_poll(fn() => ($st = trim(http_get($port, '/state')['body'])) !== 'idle' ? $st : null, 10), "\n";
    socket_set_option($s, SOL_TCP, 19, 1);
    socket_close($s);
};

foreach ([1, 0] as $keepalive) {
    echo "-- tcp_keepalive $keepalive\n";
    $srv = http_server_start($handler, ['request_buffering' => false, 'tcp_keepalive' => $keepalive, 'shutdown_timeout' => 1]);
    $vanish($srv->port);
    /* Probed after 1 s of silence: the client's host answers the probe with a reset, as a restarted one would. */
    if ($keepalive) {
        $state = http_test_poll(fn() => ($st = trim(http_get($srv->port, '/state')['body'])) !== 'waiting' ? $st : null, 10);
    } else {
        /* Twice as long as the other server took at most, unstretched: the kernel's clock, not the server's. */
        sleep(3);
        $state = trim(http_get($srv->port, '/state')['body']);
    }
    echo "then: $state\n";
    $r = $srv->stop();
    echo "exit: {$r['code']}\n";
}
?>
--EXPECT--
-- tcp_keepalive 1
handler: waiting
then: 499: The request body cannot be read whole: the client closed the connection before the body ended
exit: 0
-- tcp_keepalive 0
handler: waiting
then: waiting
exit: 0
