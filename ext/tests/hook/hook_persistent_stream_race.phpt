--TEST--
Hook: coroutines racing for one persistent stream (STREAM_CLIENT_PERSISTENT) share it safely
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/echo_server.inc';
[$server, $port] = rapier_test_echo_server();
$results = [];
Rapier\run(function () use ($port, &$results) {
    for ($k = 0; $k < 5; $k++) {
        Rapier\go(function () use ($port, $k, &$results) {
            $c = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5,
                STREAM_CLIENT_CONNECT | STREAM_CLIENT_PERSISTENT);
            // Persistent streams never suspend: each round trip completes before another coroutine runs.
            fwrite($c, "c$k\n");
            $results[$k] = [stream_socket_get_name($c, false), trim(fgets($c))];
        });
    }
});
// One connection (one local address) served them all.
$local = array_unique(array_column($results, 0));
var_dump(count($local), array_column($results, 1));
// The same persistent stream is still usable outside the scheduler.
$c = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5, STREAM_CLIENT_CONNECT | STREAM_CLIENT_PERSISTENT);
fwrite($c, "after\n");
var_dump(fgets($c));
rapier_test_echo_server_stop($server);
?>
--EXPECT--
int(1)
array(5) {
  [0]=>
  string(7) "echo:c0"
  [1]=>
  string(7) "echo:c1"
  [2]=>
  string(7) "echo:c2"
  [3]=>
  string(7) "echo:c3"
  [4]=>
  string(7) "echo:c4"
}
string(11) "echo:after
"
