--TEST--
pcntl_fork() in a coroutine: the child gets an event loop of its own (its timers and new sockets work there), and what it does to its copies of the parent's watchers, exit() included, leaves the parent's alone
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
Rapier\run(function () {
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $writer = stream_socket_client('tcp://' . stream_socket_get_name($server, false));
    $reader = stream_socket_accept($server);
    /* Without a loop of its own, the child's exit() took the reader out of the parent's epoll set: a hang. */
    stream_set_timeout($reader, 10);
    $closed = stream_socket_server('tcp://127.0.0.1:0');
    $refusing = stream_socket_get_name($closed, false);
    fclose($closed);
    /* Waits in the loop when the fork happens: its copy in the child is unwound by the child's exit(). */
    Rapier\go(function () use ($reader) {
        $got = fread($reader, 100);
        echo "parent's reader got: $got\n";
    });
    Rapier\go(function () use ($writer, $refusing) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            Rapier\Coroutine::sleep(0.05);
            $c = @stream_socket_client("tcp://$refusing", $errno, $errstr, 1);
            /* exit() unwinds the child's copies of the other coroutines, as it does in any run. */
            echo "child: slept, connect refused: ", var_export($c === false && $errno === 111 /* ECONNREFUSED */, true), "\n";
            exit(7);
        }
        while (pcntl_waitpid($pid, $status, WNOHANG) === 0) {
            Rapier\Coroutine::sleep(0.01);
        }
        echo "child exited with ", pcntl_wexitstatus($status), "\n";
        fwrite($writer, "hello after the child's exit");
    });
});
echo "run returned\n";
?>
--EXPECT--
child: slept, connect refused: true
child exited with 7
parent's reader got: hello after the child's exit
run returned
