--TEST--
Hook: a non-blocking hooked stream returns at once, and stream_select() sees it
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $c = stream_socket_client('tcp://' . stream_socket_get_name($srv, false));
    $peer = stream_socket_accept($srv);
    stream_set_blocking($c, false);
    $meta = stream_get_meta_data($c);
    var_dump(fread($c, 10), $meta['blocked'], $meta['timed_out']);
    // More than the socket buffers take: a non-blocking write is partial, not an error.
    $n = fwrite($c, str_repeat('x', 16 << 20));
    var_dump($n > 0 && $n < 16 << 20);
    fwrite($peer, 'ready');
    $read = [$c];
    $write = $except = null;
    var_dump(stream_select($read, $write, $except, 5), fread($c, 10));
});
?>
--EXPECT--
string(0) ""
bool(false)
bool(false)
bool(true)
int(1)
string(5) "ready"
