--TEST--
Hook: stream_socket_client round trips of several coroutines interleave on one loop
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
/*
 * The server answers nobody until all three clients have sent their first
 * line: a client whose fgets() blocked the process would starve the others
 * and the server, so the run could only finish if every read yields.
 */
$log = [];
Rapier\run(function () use (&$log) {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $addr = stream_socket_get_name($srv, false);
    Rapier\go(function () use ($srv, &$log) {
        $conns = [];
        for ($i = 0; $i < 3; $i++) {
            $conns[] = stream_socket_accept($srv);
        }
        for ($round = 0; $round < 2; $round++) {
            $lines = array_map('fgets', $conns);
            $log[] = 'server read ' . implode(',', array_map('trim', $lines));
            foreach ($conns as $i => $conn) {
                fwrite($conn, 'echo:' . $lines[$i]);
            }
        }
    });
    for ($k = 0; $k < 3; $k++) {
        Rapier\go(function () use ($addr, $k, &$log) {
            $c = stream_socket_client("tcp://$addr");
            for ($round = 0; $round < 2; $round++) {
                fwrite($c, "c$k-$round\n");
                $reply = trim(fgets($c));
                $log[] = "c$k got $reply";
            }
            fclose($c);
        });
    }
});
$first_replies = array_slice($log, 1, 3);
sort($first_replies);
echo $log[0], "\n", implode("\n", $first_replies), "\n", $log[4], "\n";
echo count($log), "\n";
?>
--EXPECT--
server read c0-0,c1-0,c2-0
c0 got echo:c0-0
c1 got echo:c1-0
c2 got echo:c2-0
server read c0-1,c1-1,c2-1
8
