--TEST--
Hook: feof() on a TLS stream is false while decrypted bytes wait in OpenSSL, even when the peer has closed the socket under them: a read loop gets every byte, as with stock PHP
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
        fgets($conn);
        // One record of 16,000 bytes, then the socket closes without a close_notify.
        fwrite($conn, str_repeat('z', 16000));
        stream_socket_shutdown($conn, STREAM_SHUT_RDWR);
        fclose($conn);
    });
    $client_ctx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'localhost']]);
    $c = stream_socket_client("ssl://$addr", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $client_ctx);
    fwrite($c, "go\n");
    $data = fread($c, 8192);
    Rapier\Coroutine::sleep(0.2);   // the FIN is in by now; the record's rest sits in OpenSSL
    while (!feof($c)) {
        $data .= fread($c, 8192);
    }
    echo 'read ', strlen($data), " bytes\n";
    fclose($c);
});
?>
--EXPECT--
read 16000 bytes
