--TEST--
Hook: bytes that arrived for a waiting reader cannot be taken by another coroutine's read
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $client = stream_socket_client('tcp://' . stream_socket_get_name($srv, false));
    $peer = stream_socket_accept($srv);
    $reader = Rapier\go(function () use ($client) {
        echo 'waiting reader got: ' . fread($client, 100) . "\n";
    });
    Rapier\Coroutine::sleep(0.01);
    // The data is in the socket before the waiting reader has run again:
    // a read that did not first check who owns the socket would take it.
    fwrite($peer, 'for the first reader');
    Rapier\go(function () use ($client, $reader) {
        try {
            echo 'intruder got: ' . fread($client, 100) . "\n";
        } catch (Rapier\Exception $e) {
            echo str_replace("#$reader ", '#READER ', $e->getMessage()), "\n";
        }
    });
});
?>
--EXPECTF--
Cannot read from socket fd %d: coroutine #READER is already reading from it; use one connection per coroutine or a pool
waiting reader got: for the first reader
