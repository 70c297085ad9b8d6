--TEST--
Hook: lookups beyond the thread limit queue; one canceled while queued leaves the queue at once and its connect fails saying why; every other lookup still resolves
--EXTENSIONS--
rapier
--FILE--
<?php
// 40 lookups of localhost (/etc/hosts) against a limit of 16 lookup threads:
// 24 queue. A coroutine started after them runs before the loop polls again,
// so the four it cancels are all still queued: the head of the queue
// (index 16 is the first queued), its middle and its tail.
$port = 0;
Rapier\run(function () use (&$port) {
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
    $ids = [];
    $results = [];
    for ($i = 0; $i < 40; $i++) {
        $ids[$i] = Rapier\go(function () use ($port, $i, &$results) {
            try {
                $c = stream_socket_client("tcp://localhost:$port", $errno, $errstr, 5);
                $results[$i] = $c === false ? "failed: $errstr" : 'connected';
            } catch (Rapier\CanceledException $e) {
                $results[$i] = 'canceled: ' . $e->getMessage();
            }
        });
    }
    Rapier\go(function () use ($ids) {
        foreach ([39, 16, 25, 30] as $i) {
            echo "cancel $i: ", var_export(Rapier\Coroutine::cancel($ids[$i]), true), "\n";
        }
    });
    $peers = [];
    $deadline = hrtime(true) + 10e9;   // a lookup lost from the queue would never finish
    while (count($results) < 40 && hrtime(true) < $deadline) {
        if (($peer = @stream_socket_accept($server, 0.05)) !== false) {
            $peers[] = $peer;
        }
    }
    ksort($results);
    foreach (array_count_values($results) as $result => $count) {
        echo "$count x $result\n";
    }
    echo 'canceled: ', implode(',', array_keys(array_filter($results, fn ($r) => $r !== 'connected'))), "\n";
    echo 'accepted: ', count($peers) + count(array_filter([@stream_socket_accept($server, 0.2)])), "\n";
});
?>
--EXPECTF--
cancel 39: true
cancel 16: true
cancel 25: true
cancel 30: true

Warning: stream_socket_client(): Unable to connect to tcp://localhost:%d (canceled while connecting to localhost) in %s on line %d

Warning: stream_socket_client(): Unable to connect to tcp://localhost:%d (canceled while connecting to localhost) in %s on line %d

Warning: stream_socket_client(): Unable to connect to tcp://localhost:%d (canceled while connecting to localhost) in %s on line %d

Warning: stream_socket_client(): Unable to connect to tcp://localhost:%d (canceled while connecting to localhost) in %s on line %d
36 x connected
4 x canceled: Coroutine was canceled while connecting to localhost
canceled: 16,25,30,39
accepted: 36
