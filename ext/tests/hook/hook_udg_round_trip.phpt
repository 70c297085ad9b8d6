--TEST--
Hook: udg:// (unix datagram) client to a server coroutine
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
$path = sys_get_temp_dir() . '/rapier-hook-udg-' . getmypid() . '.sock';
@unlink($path);
Rapier\run(function () use ($path) {
    $srv = stream_socket_server("udg://$path", $errno, $errstr, STREAM_SERVER_BIND);
    var_dump(stream_get_meta_data($srv)['stream_type']);
    $got = null;
    Rapier\go(function () use ($srv, &$got) {
        $got = stream_socket_recvfrom($srv, 100);
    });
    $c = stream_socket_client("udg://$path");
    Rapier\Coroutine::sleep(0.01);
    var_dump($got);
    fwrite($c, 'datagram');
    Rapier\Coroutine::sleep(0.01);
    var_dump($got);
});
unlink($path);
?>
--EXPECT--
string(17) "udg_socket/rapier"
NULL
string(8) "datagram"
