--TEST--
Hook: a refused connect gives the stock warning, errno and false, inside and outside Rapier\run()
--EXTENSIONS--
rapier
--FILE--
<?php
// A port nobody listens on: bound, then released.
$probe = stream_socket_server('tcp://127.0.0.1:0');
$addr = stream_socket_get_name($probe, false);
fclose($probe);

function attempt(string $addr): void
{
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    var_dump($c, $errno, $errstr);
}
attempt($addr);
Rapier\run(fn() => attempt($addr));
?>
--EXPECTF--
Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection refused) in %s on line %d
bool(false)
int(111)
string(18) "Connection refused"

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection refused) in %s on line %d
bool(false)
int(111)
string(18) "Connection refused"
