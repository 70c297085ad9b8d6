--TEST--
Hook: an unverifiable server certificate fails ssl:// with ext/openssl's warnings
--EXTENSIONS--
rapier
openssl
--INI--
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/tls.inc';
$pem = rapier_test_make_cert('localhost');
Rapier\run(function () use ($pem) {
    $server_ctx = stream_context_create(['ssl' => ['local_cert' => $pem]]);
    $srv = stream_socket_server('ssl://127.0.0.1:0', $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $server_ctx);
    $addr = stream_socket_get_name($srv, false);
    Rapier\go(function () use ($srv) {
        // The server side of each failed handshake is not what this test checks.
        for ($i = 0; $i < 2; $i++) {
            @stream_socket_accept($srv);
        }
    });
    // Not trusted: no cafile for a self-signed certificate.
    var_dump(stream_socket_client("ssl://$addr", $errno, $errstr, 5));
    // Trusted, but issued for another name.
    $ctx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'example.org']]);
    var_dump(stream_socket_client("ssl://$addr", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx));
});
?>
--EXPECTF--
Warning: stream_socket_client(): SSL operation failed with code 1. OpenSSL Error messages:
error:%s:certificate verify failed in %s on line %d

Warning: stream_socket_client(): Failed to enable crypto in %s on line %d

Warning: stream_socket_client(): Unable to connect to ssl://127.0.0.1:%d (Unknown error) in %s on line %d
bool(false)

Warning: stream_socket_client(): Peer certificate CN=`localhost' did not match expected CN=`example.org' in %s on line %d

Warning: stream_socket_client(): Failed to enable crypto in %s on line %d

Warning: stream_socket_client(): Unable to connect to ssl://127.0.0.1:%d (Unknown error) in %s on line %d
bool(false)
