--TEST--
Hook: the parent's ends of proc_open()'s "socket" descriptors wait in the loop inside a run; proc_close() while a coroutine reads one throws; outside a run they are PHP's
--EXTENSIONS--
rapier
--FILE--
<?php
/* The child answers each line only when it gets it: no timing decides what a reader finds. */
$command = ['sh', '-c', 'read line; echo "got $line"; read line; echo "done $line"'];
$spec = [0 => ['socket'], 1 => ['socket']];
$p = proc_open($command, $spec, $pipes);
echo "outside a run: ", stream_get_meta_data($pipes[1])['stream_type'], "\n";
fwrite($pipes[0], "x\nw\n");
echo fgets($pipes[1]), fgets($pipes[1]);
echo "exit: ", proc_close($p), "\n";

Rapier\run(function () use ($command, $spec) {
    $p = proc_open($command, $spec, $pipes);
    echo "in a run: ", stream_get_meta_data($pipes[0])['stream_type'], ", ",
        stream_get_meta_data($pipes[1])['stream_type'], "\n";
    fwrite($pipes[0], "y\n");
    echo fgets($pipes[1]);
    $read = false;
    Rapier\go(function () use ($pipes, &$read) {
        $line = fgets($pipes[1]);
        $read = true;
        echo "reader: ", trim($line), "\n";
    });
    Rapier\Coroutine::sleep(0.01);
    try {
        proc_close($p);
    } catch (Rapier\Exception $e) {
        echo "proc_close() under a reader: ", preg_replace('~fd \d+~', 'fd N', $e->getMessage()), "\n";
    }
    /* A reader that blocked would hold this coroutine up until the child wrote, which it does only after these sleeps. */
    $sleeps = 0;
    while ($sleeps < 5 && !$read) {
        Rapier\Coroutine::sleep(0.02);
        $sleeps++;
    }
    echo "slept while the reader waited: $sleeps, the reader has its line: ", var_export($read, true), "\n";
    fwrite($pipes[0], "z\n");
    while (!$read) {
        Rapier\Coroutine::sleep(0.01);
    }
    echo "exit: ", proc_close($p), "\n";
});
?>
--EXPECTF--
outside a run: generic_socket
got x
done w
exit: 0
in a run: unix_socket/rapier, unix_socket/rapier
got y
proc_close() under a reader: Cannot close socket fd N: coroutine #%d is reading from it; use stream_socket_shutdown() to interrupt it
slept while the reader waited: 5, the reader has its line: false
reader: done z
exit: 0
