--TEST--
Hook: STARTTLS with stream_socket_enable_crypto() on hooked tcp streams, both sides in coroutines
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
    $srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $server_ctx);
    $addr = stream_socket_get_name($srv, false);
    Rapier\go(function () use ($srv) {
        $conn = stream_socket_accept($srv);
        if (fgets($conn) === "STARTTLS\n") {
            fwrite($conn, "GO AHEAD\n");
            $ok = stream_socket_enable_crypto($conn, true, STREAM_CRYPTO_METHOD_TLS_SERVER);
            fwrite($conn, 'server crypto ' . var_export($ok, true) . ', secret:' . fgets($conn));
        }
        fclose($conn);
    });
    $c = stream_socket_client("tcp://$addr");
    fwrite($c, "STARTTLS\n");
    echo fgets($c);
    var_dump(isset(stream_get_meta_data($c)['crypto']));
    stream_context_set_option($c, 'ssl', 'cafile', $pem);
    stream_context_set_option($c, 'ssl', 'peer_name', 'localhost');
    var_dump(stream_socket_enable_crypto($c, true, STREAM_CRYPTO_METHOD_TLS_CLIENT));
    var_dump(stream_get_meta_data($c)['crypto']['protocol']);
    fwrite($c, "hello\n");
    echo fgets($c);
    fclose($c);
});
?>
--EXPECT--
GO AHEAD
bool(false)
bool(true)
string(7) "TLSv1.3"
server crypto true, secret:hello
