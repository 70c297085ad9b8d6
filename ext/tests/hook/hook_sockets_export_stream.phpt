--TEST--
Hook: a stream socket_export_stream() makes in a run waits in the loop although ext/sockets keeps the descriptor blocking: reads and writes of a Unix pair, and stream_socket_accept() on an exported TCP listener (with a timeout of 0 it answers at once)
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
Rapier\run(function () {
    $ticks = 0;
    $done = false;
    /* Ticks until the end, however slow the machine. */
    Rapier\go(function () use (&$ticks, &$done) {
        while (!$done) {
            $ticks++;
            Rapier\Coroutine::sleep(0.01);
        }
    });
    /* Each wait below would hold up the ticker and the coroutine it waits for if it blocked: the test would hang. */
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
    $stream = socket_export_stream($pair[0]);
    echo "exported: ", stream_get_meta_data($stream)['stream_type'], "\n";
    $before = $ticks;
    /* The peer writes after three ticks: the read returns only if the ticker ran while it waited. */
    Rapier\go(function () use ($pair, &$ticks, $before) {
        while ($ticks - $before < 3) {
            Rapier\Coroutine::sleep(0.01);
        }
        socket_write($pair[1], "ping");
    });
    echo "read: ", fread($stream, 10), ", the ticker ran meanwhile: ", var_export($ticks - $before >= 3, true), "\n";
    fwrite($stream, "pong");
    echo "the Socket end got: ", socket_read($pair[1], 10), "\n";

    $listener = socket_create_listen(0);
    socket_getsockname($listener, $addr, $port);
    $server = socket_export_stream($listener);
    $none = @stream_socket_accept($server, 0);
    echo "accept with a timeout of 0: ", var_export($none, true), "\n";
    $before = $ticks;
    Rapier\go(function () use ($port, &$ticks, $before) {
        while ($ticks - $before < 3) {
            Rapier\Coroutine::sleep(0.01);
        }
        $client = stream_socket_client("tcp://127.0.0.1:$port");
        fwrite($client, "hello");
        Rapier\Coroutine::sleep(0.05);
    });
    $conn = stream_socket_accept($server, 5);
    echo "accepted, the ticker ran meanwhile: ", var_export($ticks - $before >= 3, true), "; read: ", fread($conn, 10), "\n";
    $done = true;
});
?>
--EXPECT--
exported: unix_socket/rapier
read: ping, the ticker ran meanwhile: true
the Socket end got: pong
accept with a timeout of 0: false
accepted, the ticker ran meanwhile: true; read: hello
