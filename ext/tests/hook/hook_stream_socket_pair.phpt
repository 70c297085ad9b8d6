--TEST--
Hook: stream_socket_pair() inside a run makes Unix socket streams that wait in the loop (stream and datagram pairs; timeouts, EOF and warnings as PHP's); outside a run, with the hook off, or for another type or domain, it is PHP's own
--EXTENSIONS--
rapier
--FILE--
<?php
$type = fn ($s) => stream_get_meta_data($s)['stream_type'];
[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
echo "outside a run: ", $type($a), "\n";
Rapier\run(function () use ($type) {
    [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    echo "in a run: ", $type($a), ", ", $type($b), "\n";
    $ticks = 0;
    Rapier\go(function () use (&$ticks) {
        for ($i = 0; $i < 5; $i++) {
            $ticks++;
            Rapier\Coroutine::sleep(0.02);
        }
    });
    Rapier\go(function () use ($b, &$ticks) {
        while ($ticks < 3) {
            Rapier\Coroutine::sleep(0.01);
        }
        fwrite($b, "ping");
    });
    /* The write waits for three ticks: a read that blocked would hold both up, and the test would hang. */
    $got = fread($a, 10);
    echo "read ", $got, " while the ticker ran: ", var_export($ticks >= 3, true), "\n";

    Rapier\go(function () use ($a) {
        $got = fread($a, 10);
        echo "reader got: ", var_export($got, true), "\n";
    });
    Rapier\Coroutine::sleep(0.01);
    try {
        fclose($a);
    } catch (Rapier\Exception $e) {
        echo "fclose() under a reader: ", preg_replace('~fd \d+~', 'fd N', $e->getMessage()), "\n";
    }
    fwrite($b, "pong");
    Rapier\Coroutine::sleep(0.01);

    stream_set_timeout($a, 0, 50000);
    echo "timed out: ", var_export(fread($a, 10), true), ", ", var_export(stream_get_meta_data($a)['timed_out'], true), "\n";
    fclose($b);
    echo "after the peer closed: ", var_export(fread($a, 10), true), ", feof ", var_export(feof($a), true), "\n";

    [$d0, $d1] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_DGRAM, 0);
    echo "datagrams: ", $type($d0), "\n";
    Rapier\go(function () use ($d1) {
        Rapier\Coroutine::sleep(0.02);
        fwrite($d1, "one");
        fwrite($d1, "two");
    });
    echo fread($d0, 100), " ", fread($d0, 100), "\n";

    echo "seqpacket: ", $type(stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_SEQPACKET, 0)[0]), "\n";
    var_dump(stream_socket_pair(STREAM_PF_INET, STREAM_SOCK_STREAM, 0));

    Rapier\Runtime::disableHooks();
    echo "hooks off: ", $type(stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0)[0]), "\n";
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_UNIX);
    echo "unix hook off: ", $type(stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0)[0]),
        ", datagrams still: ", $type(stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_DGRAM, 0)[0]), "\n";
    Rapier\Runtime::enableHooks();
});
var_dump(stream_socket_pair(STREAM_PF_INET, STREAM_SOCK_STREAM, 0));
?>
--EXPECTF--
outside a run: generic_socket
in a run: unix_socket/rapier, unix_socket/rapier
read ping while the ticker ran: true
fclose() under a reader: Cannot close socket fd N: coroutine #4 is reading from it; use stream_socket_shutdown() to interrupt it
reader got: 'pong'
timed out: false, true
after the peer closed: '', feof true
datagrams: udg_socket/rapier
one two
seqpacket: generic_socket

Warning: stream_socket_pair(): Failed to create sockets: [95]: Operation not supported in %s on line %d
bool(false)
hooks off: generic_socket
unix hook off: generic_socket, datagrams still: udg_socket/rapier

Warning: stream_socket_pair(): Failed to create sockets: [95]: Operation not supported in %s on line %d
bool(false)
