--TEST--
Hook: child processes in a coroutine answer as stock PHP does outside one (pipe metadata, non-blocking pipes, partial reads, end of file, exit codes, signals); a wait on a pipe or in proc_close() can be canceled; closing a pipe another coroutine waits on, or its process, throws; two readers of one pipe are refused
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/proc.inc';

/** What a series of child-process calls answers; the same outside a run and in a coroutine. */
function proc_transcript(): array
{
    $out = [];
    // The child prints its second part only once the parent has read the first.
    $flag = proc_test_flag('second');
    $proc = proc_open(proc_test_bounded('printf abc; ' . proc_test_wait_for($flag, 'printf def; exit 3')),
        [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $meta = stream_get_meta_data($pipes[1]);
    unset($meta['uri']);
    $out[] = 'meta: ' . json_encode($meta);
    $out[] = 'first read: ' . fread($pipes[1], 100);
    touch($flag);
    $out[] = 'second read: ' . fread($pipes[1], 100);
    $out[] = 'at end: ' . var_export(fread($pipes[1], 100), true) . ' ' . var_export(feof($pipes[1]), true);
    $out[] = 'stderr: ' . var_export(stream_get_contents($pipes[2]), true);
    $out[] = 'exit code: ' . proc_close($proc);
    unlink($flag);

    // A non-blocking pipe answers at once, with nothing yet.
    $proc = proc_open(proc_test_bounded(proc_test_wait_for($flag, 'echo late')), [1 => ['pipe', 'w']], $pipes);
    stream_set_blocking($pipes[1], false);
    $out[] = 'non-blocking read: ' . var_export(fread($pipes[1], 100), true) . ' ' . var_export(feof($pipes[1]), true);
    touch($flag);
    stream_set_blocking($pipes[1], true);
    $out[] = 'blocking again: ' . trim(fgets($pipes[1]));
    $out[] = 'exit code: ' . proc_close($proc);
    unlink($flag);

    // A child ended by a signal: PHP 8.2 reports the signal's number. (SIGKILL: valgrind's children may catch others.)
    $proc = proc_open('echo ready; exec sleep 10', [1 => ['pipe', 'w']], $pipes);
    $out[] = 'the child: ' . trim(fgets($pipes[1]));
    proc_terminate($proc, 9);
    $out[] = 'read after SIGKILL: ' . var_export(stream_get_contents($pipes[1]), true);
    $out[] = 'terminated exit code: ' . proc_close($proc);

    // A write to a child that closed its end fails as PHP's does.
    $proc = proc_open("exec sh -c 'exec 0<&-; echo closed; sleep 0.1'", [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $out[] = 'the child: ' . trim(fgets($pipes[1]));
    $out[] = 'write to a closed pipe: ' . var_export(@fwrite($pipes[0], str_repeat('z', 100000)), true);
    $out[] = 'exit code: ' . proc_close($proc);

    // popen() both ways.
    $pipe = popen('exec echo popen', 'r');
    $out[] = 'popen: ' . trim(fgets($pipe)) . ', pclose ' . pclose($pipe);
    return $out;
}

pcntl_signal(SIGPIPE, SIG_IGN);
$stock = proc_transcript();
$hooked = null;
Rapier\run(function () use (&$hooked) {
    $ticks = 0;
    $ticker = Rapier\go(function () use (&$ticks) {
        try {
            while (true) {
                usleep(2000);
                $ticks++;
            }
        } catch (Rapier\CanceledException) {
        }
    });
    $hooked = proc_transcript();
    Rapier\Coroutine::cancel($ticker);
    echo 'the ticker ran meanwhile: ', var_export($ticks > 0, true), "\n";
});
echo $hooked === $stock ? "same answers\n" : "differs:\n" . print_r(array_diff_assoc($hooked, $stock), true) . print_r($stock, true);
echo implode("\n", $stock), "\n";

Rapier\run(function () {
    // Cancel a reader; the pipe still works after.
    $proc = proc_open(proc_test_bounded('read line; echo "got:$line"'), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $reader = Rapier\go(function () use ($pipes) {
        try {
            fgets($pipes[1]);
            echo "read returned\n";
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ': ', preg_replace('/fd \d+/', 'fd N', $e->getMessage()), "\n";
        }
    });
    usleep(1000);
    Rapier\Coroutine::cancel($reader);
    usleep(1000);

    // A second reader is refused; fclose() and proc_close() of the pipe a coroutine waits on throw.
    $first = new Rapier\WaitGroup();
    $first->add(1);
    Rapier\go(function () use ($pipes, $first) {
        echo 'first reader: ' . trim(fgets($pipes[1])) . "\n";
        $first->done();
    });
    usleep(1000);
    foreach ([
        'second reader' => fn () => fgets($pipes[1]),
        'fclose' => fn () => fclose($pipes[1]),
        'proc_close' => fn () => proc_close($proc),
    ] as $what => $call) {
        try {
            $call();
            echo "$what: no exception\n";
        } catch (Rapier\Exception $e) {
            echo "$what: ", get_class($e), ': ', preg_replace('/(fd |#)\d+/', '$1N', $e->getMessage()), "\n";
        }
    }
    fwrite($pipes[0], "after\n");
    $first->wait();
    echo 'exit code: ', proc_close($proc), "\n";

    // Cancel a proc_close() waiting for its child.
    $proc = proc_open(proc_test_bounded('sleep 10'), [], $pipes);
    $closer = Rapier\go(function () use ($proc) {
        try {
            proc_close($proc);
            echo "proc_close returned\n";
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ': ', preg_replace('/process \d+/', 'process N', $e->getMessage()), "\n";
        }
    });
    // Without pidfds (valgrind) the closer checks on a timer, and may be between two checks, ready to run.
    usleep(1000);
    echo 'cancel: ', var_export(Rapier\Coroutine::cancel($closer), true), "\n";
    usleep(1000);
    proc_terminate($proc, 9);
    echo 'after the cancel, the child is still there to end: ', proc_close($proc), "\n";
});
?>
--EXPECT--
the ticker ran meanwhile: true
same answers
meta: {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
first read: abc
second read: def
at end: '' true
stderr: ''
exit code: 3
non-blocking read: '' false
blocking again: late
exit code: 0
the child: ready
read after SIGKILL: ''
terminated exit code: 9
the child: closed
write to a closed pipe: false
exit code: 0
popen: popen, pclose 0
Rapier\CanceledException: Coroutine was canceled while reading pipe fd N
second reader: Rapier\Exception: Cannot read pipe fd N: coroutine #N is already reading it; use one coroutine per pipe end
fclose: Rapier\Exception: Cannot close pipe fd N: coroutine #N is waiting on it; let that coroutine close it, or end the process (proc_terminate()) so that it sees end of file
proc_close: Rapier\Exception: Cannot close pipe fd N: coroutine #N is waiting on it; let that coroutine close it, or end the process (proc_terminate()) so that it sees end of file
first reader: got:after
exit code: 0
cancel: true
Rapier\CanceledException: Coroutine was canceled while waiting for process N to exit
after the cancel, the child is still there to end: 9
