--TEST--
Hook: fclose() of a socket another coroutine waits on throws; stream_socket_shutdown() wakes the reader
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
        var_dump(fgets($client));
        echo "reader done\n";
    });
    Rapier\Coroutine::sleep(0.01);
    try {
        fclose($client);
    } catch (Rapier\Exception $e) {
        echo str_replace("#$reader ", '#READER ', $e->getMessage()), "\n";
    }
    stream_socket_shutdown($client, STREAM_SHUT_RDWR);
    Rapier\Coroutine::sleep(0.01);
    var_dump(fclose($client));
});
?>
--EXPECTF--
Cannot close socket fd %d: coroutine #READER is reading from it; use stream_socket_shutdown() to interrupt it
bool(false)
reader done
bool(true)
