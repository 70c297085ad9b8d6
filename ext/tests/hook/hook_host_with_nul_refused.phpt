--TEST--
Hook: a host name with a NUL byte is refused as stock PHP refuses it (stream_socket_client, udp, fsockopen, stream_socket_server), not cut short at the NUL
--EXTENSIONS--
rapier
--FILE--
<?php
function attempt(): void
{
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) explode(':', stream_socket_get_name($srv, false))[1];
    foreach (["tcp://127.0.0.1\0.example.com:$port", "udp://127.0.0.1\0x:$port"] as $url) {
        $c = @stream_socket_client($url, $errno, $errstr, 1);
        var_dump($c, $errstr);
    }
    var_dump(@fsockopen("127.0.0.1\0.x", $port, $errno, $errstr, 1), $errstr);
    var_dump(@stream_socket_server("tcp://127.0.0.1\0x:0", $errno, $errstr), $errstr);
    // Nothing reached the listener.
    var_dump(@stream_socket_accept($srv, 0));
}
echo "stock:\n";
attempt();
echo "hooked:\n";
Rapier\run('attempt');
?>
--EXPECT--
stock:
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
hooked:
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
string(40) "The hostname must not contain null bytes"
bool(false)
