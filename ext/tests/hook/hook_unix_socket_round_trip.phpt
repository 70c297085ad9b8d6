--TEST--
Hook: unix:// server and client in coroutines of one process
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
$path = sys_get_temp_dir() . '/rapier-hook-unix-' . getmypid() . '.sock';
@unlink($path);
Rapier\run(function () use ($path) {
    $srv = stream_socket_server("unix://$path", $errno, $errstr);
    var_dump(stream_get_meta_data($srv)['stream_type']);
    Rapier\go(function () use ($srv) {
        $conn = stream_socket_accept($srv);
        while (($line = fgets($conn)) !== false) {
            fwrite($conn, 'echo:' . $line);
        }
        fclose($conn);
    });
    $c = stream_socket_client("unix://$path");
    foreach (['one', 'two'] as $word) {
        fwrite($c, "$word\n");
        echo fgets($c);
    }
    fclose($c);
});
unlink($path);
?>
--EXPECT--
string(18) "unix_socket/rapier"
echo:one
echo:two
