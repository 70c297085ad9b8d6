--TEST--
Hook: PHP's own transports are in place before and after Rapier\run(), ours only inside
--EXTENSIONS--
rapier
--FILE--
<?php
function types(): array
{
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $c = stream_socket_client('tcp://' . stream_socket_get_name($srv, false));
    $u = stream_socket_server('udp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND);
    return [stream_get_meta_data($c)['stream_type'], stream_get_meta_data($u)['stream_type']];
}
$transports = stream_get_transports();
echo implode(' ', types()), "\n";
Rapier\run(fn() => print(implode(' ', types()) . "\n"));
echo implode(' ', types()), "\n";
var_dump(stream_get_transports() === $transports);
?>
--EXPECT--
tcp_socket/ssl udp_socket
tcp_socket/rapier udp_socket/rapier
tcp_socket/ssl udp_socket
bool(true)
