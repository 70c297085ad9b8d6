--TEST--
Hook: stream_select() and socket_select() on several descriptors (sockets, pipes) wake when another coroutine closes one of them, instead of waiting out their timeout; closing a descriptor outside the set wakes nobody
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/sockets.inc';

/**
 * Connected TCP stream pairs through one listener: [client, accepted] each.
 * The caller keeps both ends: a peer freed would make its client readable.
 */
function stream_pairs(int $count): array
{
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $address = stream_socket_get_name($server, false);
    $pairs = [];
    for ($i = 0; $i < $count; $i++) {
        $client = stream_socket_client("tcp://$address");
        $pairs[] = [$client, stream_socket_accept($server)];
    }
    return $pairs;
}

// Far longer than any of these waits should take: a wait that runs into it was not woken.
const LONG_WAIT = 10;
$log = [];

Rapier\run(function () use (&$log) {
    // stream_select(): the closed stream (the last of ten) is PHP's handler's to report, at once.
    $pairs = stream_pairs(10);
    $clients = array_column($pairs, 0);
    [$a, $b] = [$clients[9], $clients[0]];
    Rapier\go(function () use ($a) { usleep(1000); fclose($a); });
    $read = $clients;
    $write = $except = null;
    $started = microtime(true);
    try {
        stream_select($read, $write, $except, LONG_WAIT);
        $log[] = 'stream_select returned';
    } catch (TypeError $e) {
        $log[] = 'stream_select: ' . $e->getMessage();
    }
    $log[] = 'woken before its timeout: ' . var_export(microtime(true) - $started < LONG_WAIT / 2, true);
    $log[] = 'the other stream still works: ' . var_export(fwrite($b, 'x') === 1, true);

    // Two coroutines waiting on sets that share the closed stream both wake.
    $pairs = stream_pairs(3);
    [[$shared], [$only_first], [$only_second]] = $pairs;
    $woken = [];
    foreach (['first' => $only_first, 'second' => $only_second] as $name => $own) {
        Rapier\go(function () use ($name, $own, $shared, &$woken) {
            $read = [$own, $shared];
            $write = $except = null;
            try {
                stream_select($read, $write, $except, LONG_WAIT);
            } catch (TypeError) {
                $woken[] = $name;
            }
        });
    }
    usleep(1000);
    fclose($shared);
    usleep(1000);
    sort($woken);
    $log[] = 'waiters woken: ' . implode(', ', $woken);

    // A stream closed outside the set: the wait goes on until its own stream is ready.
    $pairs = stream_pairs(3);
    [[$c, $c_peer], [$d], [$outsider]] = $pairs;
    Rapier\go(function () use ($outsider, $c_peer, &$log) {
        usleep(1000);
        fclose($outsider);
        $log[] = 'outsider closed';
        usleep(1000);
        fwrite($c_peer, 'ready');
    });
    $read = [$c, $d];
    $write = $except = null;
    $ready = stream_select($read, $write, $except, LONG_WAIT);
    $log[] = "stream_select after the outsider closed: $ready ready, " . var_export($read === [$c], true);

    // The pipes of proc_open(): the same as sockets.
    $proc = proc_open('exec sleep 10', [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    Rapier\go(function () use ($pipes) { usleep(1000); fclose($pipes[2]); });
    $read = [$pipes[1], $pipes[2]];
    $write = $except = null;
    $started = microtime(true);
    try {
        stream_select($read, $write, $except, LONG_WAIT);
        $log[] = 'stream_select on pipes returned';
    } catch (TypeError $e) {
        $log[] = 'stream_select on pipes: ' . $e->getMessage();
    }
    $log[] = 'woken before its timeout: ' . var_export(microtime(true) - $started < LONG_WAIT / 2, true);
    proc_terminate($proc, 9);
    $log[] = 'the child: ' . proc_close($proc);

    // socket_select() on several sockets: fails as select() on a closed descriptor does.
    [$e, $e_peer] = sockets_test_pair();
    [$f, $f_peer] = sockets_test_pair();
    Rapier\go(function () use ($e) { usleep(1000); socket_close($e); });
    $read = [$e, $f];
    $write = $except = null;
    $started = microtime(true);
    $result = @socket_select($read, $write, $except, LONG_WAIT);
    $log[] = 'socket_select: ' . var_export($result, true) . ', ' . error_get_last()['message'];
    $log[] = 'woken before its timeout: ' . var_export(microtime(true) - $started < LONG_WAIT / 2, true);
});
echo implode("\n", $log), "\n";
?>
--EXPECT--
stream_select: stream_select(): supplied resource is not a valid stream resource
woken before its timeout: true
the other stream still works: true
waiters woken: first, second
outsider closed
stream_select after the outsider closed: 1 ready, true
stream_select on pipes: stream_select(): supplied resource is not a valid stream resource
woken before its timeout: true
the child: 9
socket_select: false, socket_select(): Unable to select [9]: Bad file descriptor
woken before its timeout: true
