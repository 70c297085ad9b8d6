--TEST--
pcntl_fork() in a coroutine: a socket one of the parent's coroutines was reading at the fork is free for the child's coroutine (the parent's copy never runs there), and the parent's reader still gets its own bytes afterwards
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
$log = tempnam(sys_get_temp_dir(), 'rapier-fork-');
Rapier\run(function () use ($log) {
    [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    stream_set_timeout($a, 10);
    Rapier\go(function () use ($a) {
        $got = fread($a, 100);
        echo "parent's reader got: $got\n";
    });
    Rapier\go(function () use ($a, $b, $log) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            fwrite($b, "for the child");
            try {
                $got = fread($a, 100);
            } catch (Rapier\Exception $e) {
                $got = $e::class . ': ' . $e->getMessage();
            }
            file_put_contents($log, "child read: $got\n");
            exit(0);
        }
        // Blocks the whole parent until the child is done: its reader cannot take the child's bytes.
        pcntl_waitpid($pid, $status);
        echo file_get_contents($log);
        fwrite($b, "for the parent");
    });
});
unlink($log);
?>
--EXPECT--
child read: for the child
parent's reader got: for the parent
