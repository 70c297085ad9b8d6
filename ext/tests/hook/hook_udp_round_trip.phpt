--TEST--
Hook: udp:// datagrams between coroutines; recvfrom yields until one arrives
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('udp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND);
    $addr = stream_socket_get_name($srv, false);
    $order = [];
    Rapier\go(function () use ($srv, &$order) {
        $order[] = 'server waits';
        $msg = stream_socket_recvfrom($srv, 100, 0, $peer);
        $order[] = "server got $msg";
        stream_socket_sendto($srv, "pong:$msg", 0, $peer);
    });
    $c = stream_socket_client("udp://$addr");
    var_dump(stream_get_meta_data($c)['stream_type']);
    Rapier\Coroutine::sleep(0.01);
    $order[] = 'client sends';
    fwrite($c, 'ping');
    $order[] = 'client got ' . fread($c, 100);
    print_r($order);
});
?>
--EXPECT--
string(17) "udp_socket/rapier"
Array
(
    [0] => server waits
    [1] => client sends
    [2] => server got ping
    [3] => client got pong:ping
)
