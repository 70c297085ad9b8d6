--TEST--
Hook: a stream opened inside Rapier\run() keeps working, blocking, after the run has ended
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/echo_server.inc';
[$server, $port] = rapier_test_echo_server();
$c = Rapier\run(function () use ($port) {
    $c = stream_socket_client("tcp://127.0.0.1:$port");
    fwrite($c, "inside\n");
    echo fgets($c);
    return $c;
});
var_dump(stream_get_meta_data($c)['stream_type']);
fwrite($c, "outside\n");
echo fgets($c);
stream_set_timeout($c, 0, 50000);
var_dump(fread($c, 10), stream_get_meta_data($c)['timed_out']);
fclose($c);
rapier_test_echo_server_stop($server);
?>
--EXPECT--
echo:inside
string(17) "tcp_socket/rapier"
echo:outside
bool(false)
bool(true)
