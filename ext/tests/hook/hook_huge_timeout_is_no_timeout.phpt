--TEST--
Hook: a read timeout too large for nanoseconds (stream_set_timeout($s, 18446744074)) waits as long as it takes, as in stock PHP, instead of wrapping round to a fraction of a second
--EXTENSIONS--
rapier
--FILE--
<?php
$srv = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($srv, false))[1];
Rapier\run(function () use ($port) {
    $c = stream_socket_client("tcp://127.0.0.1:$port");
    stream_set_timeout($c, 18446744074);
    Rapier\go(function () use ($c) {
        Rapier\Coroutine::sleep(0.5);
        echo "0.5 s later: shutting the socket down\n";
        stream_socket_shutdown($c, STREAM_SHUT_RDWR);
    });
    var_dump(fread($c, 10), stream_get_meta_data($c)['timed_out']);
});
?>
--EXPECT--
0.5 s later: shutting the socket down
string(0) ""
bool(false)
