--TEST--
Hook: the parent's ends of proc_open()'s "socket" descriptors wait in the loop inside a run; proc_close() while a coroutine reads one throws; outside a run they are PHP's
--EXTENSIONS--
rapier
--FILE--
<?php
$command = ['sh', '-c', 'read line; echo "got $line"; sleep 0.2; echo done'];
$spec = [0 => ['socket'], 1 => ['socket']];
$p = proc_open($command, $spec, $pipes);
echo "outside a run: ", stream_get_meta_data($pipes[1])['stream_type'], "\n";
fwrite($pipes[0], "x\n");
echo fgets($pipes[1]), fgets($pipes[1]);
echo "exit: ", proc_close($p), "\n";

Rapier\run(function () use ($command, $spec) {
    $p = proc_open($command, $spec, $pipes);
    echo "in a run: ", stream_get_meta_data($pipes[0])['stream_type'], ", ",
        stream_get_meta_data($pipes[1])['stream_type'], "\n";
    $ticks = 0;
    $read = false;
    /* Ticks until the reader below has its line, however slow the machine. */
    Rapier\go(function () use (&$ticks, &$read) {
        while (!$read) {
            $ticks++;
            Rapier\Coroutine::sleep(0.02);
        }
    });
    fwrite($pipes[0], "y\n");
    echo fgets($pipes[1]);
    Rapier\go(function () use ($pipes, &$ticks, &$read) {
        $before = $ticks;
        $line = fgets($pipes[1]);
        $read = true;
        /* Blocking here would have held up the ticker for the child's 0.2 s (about 10 ticks). */
        echo "reader: ", trim($line), ", the ticker ran meanwhile: ", var_export($ticks - $before >= 3, true), "\n";
    });
    Rapier\Coroutine::sleep(0.01);
    try {
        proc_close($p);
    } catch (Rapier\Exception $e) {
        echo "proc_close() under a reader: ", preg_replace('~fd \d+~', 'fd N', $e->getMessage()), "\n";
    }
    while (!$read) {
        Rapier\Coroutine::sleep(0.05);
    }
    echo "exit: ", proc_close($p), "\n";
});
?>
--EXPECTF--
outside a run: generic_socket
got x
done
exit: 0
in a run: unix_socket/rapier, unix_socket/rapier
got y
proc_close() under a reader: Cannot close socket fd N: coroutine #%d is reading from it; use stream_socket_shutdown() to interrupt it
reader: done, the ticker ran meanwhile: true
exit: 0
