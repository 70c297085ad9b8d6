--TEST--
Hook: with rapier.hooks=0 sockets inside Rapier\run() are PHP's own and block the process
--EXTENSIONS--
rapier
--INI--
rapier.hooks=0
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $client = stream_socket_client('tcp://' . stream_socket_get_name($srv, false));
    $peer = stream_socket_accept($srv);
    var_dump(stream_get_meta_data($client)['stream_type']);
    $order = [];
    Rapier\go(function () use (&$order) {
        $order[] = 'other coroutine ran';
    });
    stream_set_timeout($client, 0, 50000);
    fread($client, 10);
    $order[] = 'read returned';
    Rapier\Coroutine::sleep(0);
    print_r($order);
});
?>
--EXPECT--
string(14) "tcp_socket/ssl"
Array
(
    [0] => read returned
    [1] => other coroutine ran
)
