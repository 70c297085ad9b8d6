--TEST--
Hook: an ssl:// client and an ssl:// server (self-signed certificate) in coroutines of one process
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
        $conn = stream_socket_accept($srv);
        var_dump(stream_get_meta_data($conn)['crypto']['protocol']);
        while (($line = fgets($conn)) !== false) {
            fwrite($conn, 'tls-echo:' . $line);
        }
        fclose($conn);
    });
    $client_ctx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'localhost']]);
    $c = stream_socket_client("ssl://$addr", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $client_ctx);
    var_dump(stream_get_meta_data($c)['stream_type']);
    fwrite($c, "first\n");
    echo fgets($c);
    // A payload larger than one TLS record and than the socket buffers.
    $big = str_repeat('x', 300000);
    fwrite($c, "$big\n");
    var_dump(strlen(fgets($c, 400000)) === strlen("tls-echo:$big\n"));
    fclose($c);
});
?>
--EXPECT--
string(17) "tcp_socket/rapier"
string(7) "TLSv1.3"
tls-echo:first
bool(true)
