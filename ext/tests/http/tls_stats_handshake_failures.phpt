--TEST--
HTTPS: stats()["tls_handshake_failures"] counts the handshakes that failed: a plain HTTP request (answered 400), bytes that are not TLS, a client that connects and closes without a byte (OpenSSL's failed handshake too); not a connection or a handshake cut short by read_timeout, nor the good TLS requests that read the count
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';

$srv = http_server_start('function ($req, $res) use ($server) {
    $res->end((string) $server->stats()["tls_handshake_failures"]);
}', tls_test_options(['read_timeout' => 0.5]));

function failures(HttpTestServer $srv): string
{
    [$rc, $out] = tls_curl($srv->port, '/');
    return $rc === 0 ? $out : "curl exit $rc";
}

/* Waits for the count to reach $n: a client sees its connection closed before the server has counted it. */
function failures_reach(HttpTestServer $srv, int $n): string
{
    http_test_poll(fn () => failures($srv) === (string) $n, 5);
    return failures($srv);
}

/* Each count is read with a good TLS request (curl), which the next count would show if it were counted. */
echo 'at start: ', failures($srv), "\n";
echo 'after a good request: ', failures($srv), "\n";

$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo "plain HTTP: {$r['status']}; failures: ", failures($srv), "\n";

$c = new HttpTestConn($srv->port);
$c->send("\x00\x01\x02\x03" . str_repeat("\xff", 60));
echo 'garbage: ', json_encode($c->readAll()), ' closed: ', var_export($c->eof, true), '; failures: ', failures_reach($srv, 2), "\n";

$c = new HttpTestConn($srv->port);
$c->close();
echo 'connected and closed: failures: ', failures_reach($srv, 3), "\n";

/* Connected and silent, or a ClientHello begun and left hanging: read_timeout closes them, not a failed handshake. */
$silent = new HttpTestConn($srv->port);
$stalled = new HttpTestConn($srv->port);
$stalled->send("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03");
echo 'silent: ', json_encode($silent->readAll(5)), ' closed: ', var_export($silent->eof, true), "\n";
echo 'stalled: ', json_encode($stalled->readAll(5)), ' closed: ', var_export($stalled->eof, true), '; failures: ', failures($srv), "\n";

echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECT--
at start: 0
after a good request: 0
plain HTTP: 400; failures: 1
garbage: "" closed: true; failures: 2
connected and closed: failures: 3
silent: "" closed: true
stalled: "" closed: true; failures: 3
exit: 0
