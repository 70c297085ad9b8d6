--TEST--
Hook: Runtime::enableHooks() flags choose which transports are replaced, at once inside a run
--EXTENSIONS--
rapier
--FILE--
<?php
function type(string $uri, int $flags = STREAM_SERVER_BIND | STREAM_SERVER_LISTEN): string
{
    $s = stream_socket_server($uri, $errno, $errstr, $flags);
    $type = stream_get_meta_data($s)['stream_type'];
    fclose($s);
    return $type;
}
$path = sys_get_temp_dir() . '/rapier-hook-flags-' . getmypid() . '.sock';
Rapier\run(function () use ($path) {
    Rapier\Runtime::enableHooks(Rapier\HOOK_TCP);
    echo type('tcp://127.0.0.1:0'), ' ', type('udp://127.0.0.1:0', STREAM_SERVER_BIND), ' ', type("unix://$path"), "\n";
    @unlink($path);
    Rapier\Runtime::enableHooks(Rapier\HOOK_UNIX | Rapier\HOOK_UDP);
    echo type('tcp://127.0.0.1:0'), ' ', type('udp://127.0.0.1:0', STREAM_SERVER_BIND), ' ', type("unix://$path"), "\n";
    @unlink($path);
    Rapier\Runtime::disableHooks();
    echo type('tcp://127.0.0.1:0'), "\n";
});
?>
--EXPECT--
tcp_socket/rapier udp_socket unix_socket
tcp_socket/ssl udp_socket/rapier unix_socket/rapier
tcp_socket/ssl
