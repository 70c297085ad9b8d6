--TEST--
Hook: a coroutine waiting in ext/sockets can be canceled (CanceledException); socket_close() of a socket another coroutine waits on wakes it; a second coroutine reading the same socket gets Rapier\Exception
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/sockets.inc';
$log = [];
Rapier\run(function () use (&$log) {
    [$a, $b] = sockets_test_pair();
    $reader = Rapier\go(function () use ($a, &$log) {
        try {
            socket_read($a, 10);
            $log[] = 'read returned';
        } catch (Rapier\CanceledException $e) {
            $log[] = 'canceled: ' . $e->getMessage();
        }
    });
    usleep(1000);
    Rapier\Coroutine::cancel($reader);
    usleep(1000);
    $log[] = 'the socket still works: ' . var_export(socket_write($b, 'after') === 5 && socket_read($a, 10) === 'after', true);

    // Closing a socket under a waiting reader wakes it with EBADF.
    [$a, $b] = sockets_test_pair();
    Rapier\go(function () use ($a, $b, &$log) {
        $result = socket_read($a, 10);
        $log[] = 'reader of the closed socket: ' . var_export($result, true);
    });
    usleep(1000);
    socket_close($a);

    // Two readers of one socket: the second is refused.
    [$a, $b] = sockets_test_pair();
    Rapier\go(function () use ($a, &$log) {
        $log[] = 'first reader: ' . socket_read($a, 10);
    });
    Rapier\go(function () use ($a, &$log) {
        try {
            socket_read($a, 10);
        } catch (Rapier\Exception $e) {
            $log[] = get_class($e) . ': ' . $e->getMessage();
        }
    });
    usleep(1000);
    socket_write($b, 'data');
    usleep(1000);
});
echo implode("\n", $log), "\n";
?>
--EXPECTF--
Warning: socket_read(): unable to read from socket [125]: Operation canceled in %s on line %d

Warning: socket_read(): unable to read from socket [9]: Bad file descriptor in %s on line %d

Warning: socket_read(): unable to read from socket [16]: Device or resource busy in %s on line %d
canceled: Coroutine was canceled while waiting for socket fd %d (ext/sockets)
the socket still works: true
reader of the closed socket: false
Rapier\Exception: Cannot read from socket fd %d: coroutine #%d is already reading from it; use one socket per coroutine
first reader: data
