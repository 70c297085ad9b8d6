--TEST--
Hook: a read timeout returns false with timed_out set, as PHP's own sockets do, and other coroutines run meanwhile
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $client = stream_socket_client('tcp://' . stream_socket_get_name($srv, false));
    $peer = stream_socket_accept($srv);
    $order = [];
    stream_set_timeout($client, 0, 100000);
    Rapier\go(function () use (&$order) {
        $order[] = 'other coroutine ran';
    });
    $data = fread($client, 10);
    $order[] = 'read returned';
    var_dump($data, stream_get_meta_data($client)['timed_out']);
    print_r($order);
    fwrite($peer, 'late');
    var_dump(fread($client, 10), stream_get_meta_data($client)['timed_out']);
});
?>
--EXPECT--
bool(false)
bool(true)
Array
(
    [0] => other coroutine ran
    [1] => read returned
)
string(4) "late"
bool(false)
