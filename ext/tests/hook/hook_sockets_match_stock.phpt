--TEST--
Hook: ext/sockets in a coroutine answers as stock PHP does (non-blocking sockets, MSG_DONTWAIT, SO_RCVTIMEO and SO_SNDTIMEO on reads, writes and connects, select timeouts, refused connects, unresolvable names, EOF) while other coroutines run through its waits; with Rapier\HOOK_SOCKETS off it blocks
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/sockets.inc';

/** What each call gives, its warnings included. */
function probe(): array
{
    $seen = [];
    set_error_handler(function (int $type, string $message) use (&$seen) {
        // PHP reports whatever h_errno last held (gethostbyname_r() does not set it): not compared.
        $seen[] = '  warning: ' . preg_replace('/(Host lookup failed) \[-?\d+\]: .*/', '$1', $message);
        return true;
    });
    $result = function (string $what, mixed $value, ?Socket $s = null) use (&$seen) {
        $seen[] = "$what: " . var_export($value, true) . ($s ? ' (error ' . socket_last_error($s) . ')' : '');
    };

    [$a, $b] = sockets_test_pair();
    socket_set_nonblock($a);
    $result('non-blocking read', socket_read($a, 10), $a);
    socket_set_block($a);
    $result('MSG_DONTWAIT recv', socket_recv($a, $buffer, 10, MSG_DONTWAIT), $a);
    socket_set_option($a, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 50000]);
    $result('read past SO_RCVTIMEO', socket_read($a, 10), $a);
    $read = [$a];
    $write = $except = null;
    $result('select past its timeout', [socket_select($read, $write, $except, 0, 20000), $read]);
    socket_set_option($b, SOL_SOCKET, SO_SNDTIMEO, ['sec' => 0, 'usec' => 50000]);
    $n = socket_write($b, str_repeat('x', 4 << 20));
    $result('write past SO_SNDTIMEO', $n > 0 && $n < 4 << 20 ? 'part of it' : $n);
    [$a, $b] = sockets_test_pair();
    socket_close($a);
    $result('read after the peer closed', socket_read($b, 10));

    // A full accept queue drops SYNs: a connect waits until SO_SNDTIMEO.
    [$listener, $port] = sockets_test_listen(0);
    $queued = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_connect($queued, '127.0.0.1', $port);
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_set_option($s, SOL_SOCKET, SO_SNDTIMEO, ['sec' => 0, 'usec' => 100000]);
    $result('connect past SO_SNDTIMEO', socket_connect($s, '127.0.0.1', $port), $s);
    socket_close($listener);

    [$listener, $port] = sockets_test_listen();
    socket_set_nonblock($listener);
    $result('non-blocking accept', socket_accept($listener), $listener);
    socket_close($listener);
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    $result('connect to a closed port', socket_connect($s, '127.0.0.1', $port), $s);
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    $result('connect to a name glibc refuses', socket_connect($s, 'a..b', $port));
    $result('addrinfo of that name', socket_addrinfo_lookup('a..b', (string) $port));
    restore_error_handler();
    return $seen;
}

$outside = probe();
echo implode("\n", $outside), "\n";

$ticks = 0;
$inside = null;
Rapier\run(function () use (&$ticks, &$inside) {
    $ticker = true;
    Rapier\go(function () use (&$ticks, &$ticker) {
        while ($ticker) {
            usleep(5000);
            $ticks++;
        }
    });
    $inside = probe();
    $ticker = false;
});
echo 'in a coroutine: ', $inside === $outside ? 'the same' : "different:\n" . implode("\n", $inside), "\n";
echo 'the ticker ran meanwhile: ', $ticks > 0 ? 'yes' : 'no', "\n";

// With the hook off a wait holds up every coroutine, as in stock PHP.
$log = [];
Rapier\run(function () use (&$log) {
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_SOCKETS);
    [$a, $b] = sockets_test_pair();
    socket_set_option($a, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 200000]);
    Rapier\go(function () use ($a, $b, &$log) {
        $log[] = 'read with the hook off: ' . var_export(socket_read($a, 10), true);
    });
    Rapier\go(function () use (&$log) {
        $log[] = 'another coroutine ran';
    });
});
echo implode("\n", $log), "\n";
?>
--EXPECT--
non-blocking read: false (error 11)
MSG_DONTWAIT recv: false (error 11)
read past SO_RCVTIMEO: false (error 11)
select past its timeout: array (
  0 => 0,
  1 => 
  array (
  ),
)
write past SO_SNDTIMEO: 'part of it'
read after the peer closed: ''
connect past SO_SNDTIMEO: false (error 115)
non-blocking accept: false (error 0)
  warning: socket_connect(): unable to connect [111]: Connection refused
connect to a closed port: false (error 111)
  warning: socket_connect(): Host lookup failed
connect to a name glibc refuses: false
addrinfo of that name: false
in a coroutine: the same
the ticker ran meanwhile: yes
read with the hook off: false
another coroutine ran
