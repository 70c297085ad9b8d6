--TEST--
Hook: ext/sockets loaded with dl() after a run has started and ended is hooked from the next run on (a run start rebinds only when objects were loaded since)
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/../http/server.inc';

// A PHP without ext/sockets until the script dl()s it.
$script = tempnam(sys_get_temp_dir(), 'rapier-dl-');
file_put_contents($script, '<?php
Rapier\run(fn () => null);
echo "sockets before dl(): ", var_export(extension_loaded("sockets"), true), "\n";
dl("sockets.so");
require ' . var_export(__DIR__ . '/sockets.inc', true) . ';
Rapier\run(function () {
    [$server, $port] = sockets_test_listen();
    // Accepts before the client exists: a blocking accept would wait out its 5 s and fail.
    Rapier\go(function () use ($server) {
        $conn = socket_accept($server);
        socket_write($conn, $conn === false ? "accept failed" : "accepted");
    });
    $client = sockets_test_bounded(socket_create(AF_INET, SOCK_STREAM, SOL_TCP));
    socket_connect($client, "127.0.0.1", $port);
    echo "after dl(): ", socket_read($client, 100), "\n";
});
');
// Started without a shell, so that valgrind's stage traces this PHP (scripts/test.sh skips shells).
$php = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . http_test_extension_path(), $script],
    [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
echo stream_get_contents($pipes[1]);
proc_close($php);
unlink($script);
?>
--EXPECT--
sockets before dl(): false
after dl(): accepted
