--TEST--
Hook: TLS switched on over a stream socket_export_stream() made in a run waits in the loop although ext/sockets keeps the descriptor blocking (the handshake and the reads need the server, a coroutine of the same process)
--EXTENSIONS--
rapier
sockets
openssl
--INI--
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/tls.inc';
$pem = rapier_test_make_cert('localhost');
Rapier\run(function () use ($pem) {
    $context = stream_context_create(['ssl' => ['local_cert' => $pem]]);
    $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
    [, $port] = explode(':', stream_socket_get_name($server, false));
    Rapier\go(function () use ($server) {
        $conn = stream_socket_accept($server);
        $ok = stream_socket_enable_crypto($conn, true, STREAM_CRYPTO_METHOD_TLS_SERVER);
        fwrite($conn, 'server crypto ' . var_export($ok, true) . "\n");
        $line = fgets($conn);
        echo "the server got: $line";
        fclose($conn);
    });
    /* A blocking read of the handshake would wait for the server coroutine, which could never run. */
    $socket = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_connect($socket, '127.0.0.1', (int) $port);
    $stream = socket_export_stream($socket);
    stream_context_set_option($stream, 'ssl', 'cafile', $pem);
    stream_context_set_option($stream, 'ssl', 'peer_name', 'localhost');
    var_dump(stream_socket_enable_crypto($stream, true, STREAM_CRYPTO_METHOD_TLS_CLIENT));
    $line = fgets($stream);
    echo "the client got: $line";
    fwrite($stream, "hello over TLS\n");
    $end = fgets($stream);
    echo "end of stream: ", var_export($end, true), "\n";
});
?>
--EXPECT--
bool(true)
the client got: server crypto true
the server got: hello over TLS
end of stream: false
