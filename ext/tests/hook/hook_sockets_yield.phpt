--TEST--
Hook: ext/sockets calls on blocking sockets suspend only their coroutine: accept, connect by host name, read and write, recv with MSG_WAITALL, a 4 MB write, UDP, sendmsg/recvmsg and socket_select
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/sockets.inc';
$log = [];
Rapier\run(function () use (&$log) {
    // The server accepts before any client exists, and answers only once
    // every client has sent: blocking calls would stall it at the first step.
    [$server, $port] = sockets_test_listen();
    $clients = 5;
    $arrived = new Rapier\WaitGroup();
    $arrived->add($clients);
    Rapier\go(function () use ($server, $clients, $arrived) {
        for ($i = 0; $i < $clients; $i++) {
            $conn = socket_accept($server);
            Rapier\go(function () use ($conn, $arrived) {
                $request = socket_read($conn, 100);
                $arrived->done();
                $arrived->wait();
                socket_write($conn, "pong $request");
                socket_close($conn);
            });
        }
    });
    for ($i = 0; $i < $clients; $i++) {
        Rapier\go(function () use ($port, $i, &$log) {
            $s = sockets_test_bounded(socket_create(AF_INET, SOCK_STREAM, SOL_TCP));
            $connected = socket_connect($s, 'localhost', $port);
            socket_write($s, "ping $i");
            $log[] = 'client ' . ($connected ? 'connected' : 'failed') . ': ' . var_export(socket_read($s, 100), true);
            socket_close($s);
        });
    }

    // MSG_WAITALL: one call gets three writes made while it waits.
    [$a, $b] = sockets_test_pair();
    Rapier\go(function () use ($b) {
        foreach (['one ', 'two ', 'three'] as $piece) {
            usleep(1000);
            socket_write($b, $piece);
        }
    });
    $n = socket_recv($a, $buffer, 13, MSG_WAITALL);
    $log[] = "recv MSG_WAITALL: $n " . var_export($buffer, true);

    // A write larger than the socket buffers completes while the reader reads.
    [$writer, $reader] = sockets_test_pair();
    $size = 4 << 20;
    $read = 0;
    $reading = new Rapier\WaitGroup();
    $reading->add();
    Rapier\go(function () use ($reader, $size, &$read, $reading) {
        while ($read < $size && ($chunk = socket_read($reader, 65536)) !== false && $chunk !== '') {
            $read += strlen($chunk);
        }
        $reading->done();
    });
    $written = socket_write($writer, str_repeat('x', $size));
    $read_before = $read;
    $reading->wait();
    $log[] = "4 MB write: $written written, " . ($read_before > 0 ? 'the reader ran meanwhile' : 'the reader never ran') . ", $read read";

    // UDP: the receiver waits before anything is sent.
    $udp = sockets_test_bounded(socket_create(AF_INET, SOCK_DGRAM, SOL_UDP));
    socket_bind($udp, '127.0.0.1', 0);
    socket_getsockname($udp, $address, $udp_port);
    Rapier\go(function () use ($udp_port) {
        $s = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
        socket_sendto($s, 'datagram', 8, 0, '127.0.0.1', $udp_port);
    });
    $n = socket_recvfrom($udp, $datagram, 100, 0, $from, $from_port);
    $log[] = "udp recvfrom: $n " . var_export($datagram, true) . " from $from";

    // sendmsg/recvmsg, the receiver first.
    [$a, $b] = sockets_test_pair(SOCK_DGRAM);
    Rapier\go(function () use ($b) {
        socket_sendmsg($b, ['iov' => ['scattered ', 'message']], 0);
    });
    $message = ['buffer_size' => 100, 'controllen' => socket_cmsg_space(SOL_SOCKET, SCM_RIGHTS, 1)];
    $n = socket_recvmsg($a, $message, 0);
    $log[] = "recvmsg: $n " . var_export($message['iov'][0], true);

    // socket_select() waits in the loop too.
    [$a, $b] = sockets_test_pair();
    Rapier\go(function () use ($b) {
        usleep(1000);
        socket_write($b, 'ready');
    });
    $read = [$a];
    $write = $except = null;
    $n = socket_select($read, $write, $except, 5);
    $log[] = "select: $n, " . socket_read($a, 100);
});
sort($log);
echo implode("\n", $log), "\n";
?>
--EXPECT--
4 MB write: 4194304 written, the reader ran meanwhile, 4194304 read
client connected: 'pong ping 0'
client connected: 'pong ping 1'
client connected: 'pong ping 2'
client connected: 'pong ping 3'
client connected: 'pong ping 4'
recv MSG_WAITALL: 13 'one two three'
recvmsg: 17 'scattered message'
select: 1, ready
udp recvfrom: 8 'datagram' from 127.0.0.1
