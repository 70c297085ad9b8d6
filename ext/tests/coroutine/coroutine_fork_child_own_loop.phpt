--TEST--
pcntl_fork() in a coroutine: the child keeps only the forking coroutine (copies of the others are never woken there, not by their sockets nor by their timers, are not counted, listed, found or canceled there, and are unwound when its run ends); it gets an event loop of its own, and nothing it does reaches the parent's
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
$log = tempnam(sys_get_temp_dir(), 'rapier-fork-');
$parent = getmypid();
/* The child's lines go to a file the parent prints once the child has exited: one order on any machine. */
$say = function (string $line) use ($log, $parent): void {
    if (getmypid() === $parent) {
        echo $line, "\n";
    } else {
        file_put_contents($log, "  $line (child)\n", FILE_APPEND);
    }
};
Rapier\run(function () use ($say, $log) {
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $writer = stream_socket_client('tcp://' . stream_socket_get_name($server, false));
    $reader = stream_socket_accept($server);
    stream_set_timeout($reader, 10);
    $closed = stream_socket_server('tcp://127.0.0.1:0');
    $refusing = stream_socket_get_name($closed, false);
    fclose($closed);

    $readerId = Rapier\go(function () use ($reader, $say) {
        try {
            $got = fread($reader, 100);
            $say("reader got: $got");
        } finally {
            $say("reader's finally");
        }
    });
    Rapier\go(function () use ($say) {
        Rapier\Coroutine::sleep(0.1);
        $say("sleeper woke");
    });
    Rapier\go(function () use ($writer, $refusing, $say, $log, $readerId) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            /* The parent's coroutines are not the child's to count, list, find or cancel. */
            $say(sprintf('coroutines: %d, listed: %s, the reader exists: %s, cancel(reader): %s',
                Rapier\Coroutine::count(),
                Rapier\Coroutine::list() === [Rapier\Coroutine::id()] ? 'itself only' : json_encode(Rapier\Coroutine::list()),
                var_export(Rapier\Coroutine::exists($readerId), true),
                var_export(Rapier\Coroutine::cancel($readerId), true)));
            /* Outlives the sleeper's timer: its copy must not wake here. */
            Rapier\Coroutine::sleep(0.3);
            $c = @stream_socket_client("tcp://$refusing", $errno, $errstr, 1);
            $say("slept, connect refused: " . var_export($c === false && $errno === 111 /* ECONNREFUSED */, true));
            return;
        }
        while (pcntl_waitpid($pid, $status, WNOHANG) === 0) {
            Rapier\Coroutine::sleep(0.01);
        }
        $say("child exited with " . pcntl_wexitstatus($status) . ", and wrote:");
        echo file_get_contents($log);
        fwrite($writer, "hello after the child's end");
    });
});
$say("run returned");
if (getmypid() === $parent) {
    unlink($log);
}
?>
--EXPECT--
sleeper woke
child exited with 0, and wrote:
  coroutines: 1, listed: itself only, the reader exists: false, cancel(reader): false (child)
  slept, connect refused: true (child)
  reader's finally (child)
  run returned (child)
reader got: hello after the child's end
reader's finally
run returned
