--TEST--
Hook: a second coroutine reading a socket another one waits on gets a Rapier\Exception
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
    $first = Rapier\go(function () use ($client) {
        echo "first got: " . fread($client, 100) . "\n";
    });
    Rapier\go(function () use ($client, $first) {
        try {
            fread($client, 100);
            echo "second read: no exception\n";
        } catch (Rapier\Exception $e) {
            echo str_replace("#$first ", '#FIRST ', $e->getMessage()), "\n";
        }
    });
    Rapier\Coroutine::sleep(0.01);
    fwrite($peer, 'the only data');
});
?>
--EXPECTF--
Cannot read from socket fd %d: coroutine #FIRST is already reading from it; use one connection per coroutine or a pool
first got: the only data
