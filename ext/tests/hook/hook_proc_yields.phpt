--TEST--
Hook: proc_open() pipes, popen() and proc_close() suspend only their coroutine: a child answered only by another coroutine, 1 MB through cat while another coroutine reads it, three coroutines writing one pipe in turns (each line whole), proc_close() and popen() of children that another coroutine lets finish
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/proc.inc';
$log = [];
Rapier\run(function () use (&$log) {
    // The child answers a line only another coroutine writes: a blocking fgets() would hold that coroutine up.
    $proc = proc_open(proc_test_bounded('read line; echo "got:$line"'), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    Rapier\go(function () use ($pipes) {
        fwrite($pipes[0], "hello\n");
    });
    $log[] = 'fgets: ' . trim(fgets($pipes[1]));
    $log[] = 'exit code: ' . proc_close($proc);

    // 1 MB through cat, written by one coroutine while another reads: blocking, the writer fills both pipes and stops.
    $data = random_bytes(1 << 20);
    $proc = proc_open(proc_test_bounded('cat'), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $wg = new Rapier\WaitGroup();
    $wg->add(2);
    Rapier\go(function () use ($pipes, $data, $wg, &$log) {
        $log[] = 'written: ' . fwrite($pipes[0], $data);
        fclose($pipes[0]);
        $wg->done();
    });
    $read = '';
    Rapier\go(function () use ($pipes, $wg, &$read) {
        $read = stream_get_contents($pipes[1]);
        $wg->done();
    });
    $wg->wait();
    $log[] = 'read back intact: ' . var_export($read === $data, true);
    $log[] = 'cat exit code: ' . proc_close($proc);

    // Three coroutines writing 100 KB lines to one pipe take turns: cat gives every line back whole.
    $proc = proc_open(proc_test_bounded('cat'), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $writers = new Rapier\WaitGroup();
    foreach (['a', 'b', 'c'] as $letter) {
        $writers->add();
        Rapier\go(function () use ($pipes, $letter, $writers) {
            for ($i = 0; $i < 4; $i++) {
                fwrite($pipes[0], str_repeat($letter, 100000) . "\n");
            }
            $writers->done();
        });
    }
    Rapier\go(function () use ($pipes, $writers) {
        $writers->wait();
        fclose($pipes[0]);
    });
    $whole = ['a' => 0, 'b' => 0, 'c' => 0];
    $cut = 0;
    while (($line = fgets($pipes[1])) !== false) {
        strlen($line) === 100001 && strspn($line, $line[0]) === 100000 ? $whole[$line[0]]++ : $cut++;
    }
    $log[] = 'lines from three writers: ' . json_encode($whole) . ", cut: $cut";
    proc_close($proc);

    // proc_close() waits for a child that exits only once another coroutine lets it.
    $flag = proc_test_flag('close');
    $proc = proc_open(proc_test_bounded(proc_test_wait_for($flag, 'exit 7')), [1 => ['pipe', 'w']], $pipes);
    Rapier\go(function () use ($flag) {
        touch($flag);
    });
    $log[] = 'proc_close: ' . proc_close($proc);
    unlink($flag);

    // popen(): reading to the end, then pclose().
    $flag = proc_test_flag('popen');
    $pipe = popen(proc_test_bounded(proc_test_wait_for($flag, 'echo popen done')), 'r');
    Rapier\go(function () use ($flag) {
        touch($flag);
    });
    $log[] = 'popen: ' . trim(stream_get_contents($pipe));
    $log[] = 'pclose: ' . pclose($pipe);
    unlink($flag);

    // popen() for writing, more than a pipe holds: written as the child reads.
    $count = proc_test_flag('count');
    $pipe = popen(proc_test_bounded('wc -c > ' . escapeshellarg($count)), 'w');
    $log[] = 'popen write: ' . fwrite($pipe, str_repeat('y', 300000));
    $log[] = 'pclose: ' . pclose($pipe);
    $log[] = 'the child counted: ' . trim(file_get_contents($count));
    unlink($count);
});
echo implode("\n", $log), "\n";

// With the flag off, the first case blocks: the child gives up and answers nothing.
Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_PROC);
Rapier\run(function () {
    $proc = proc_open(proc_test_bounded('read line; echo "got:$line"', 1), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    Rapier\go(function () use ($pipes) {
        // Runs only once the reader gave up and proc_close() closed the pipes.
        echo 'the writer ran after proc_close(): ', var_export(!is_resource($pipes[0]), true), "\n";
    });
    echo 'HOOK_PROC off, fgets: ', var_export(fgets($pipes[1]), true), "\n";
    echo 'exit code: ', proc_close($proc), "\n";
});
?>
--EXPECT--
fgets: got:hello
exit code: 0
written: 1048576
read back intact: true
cat exit code: 0
lines from three writers: {"a":4,"b":4,"c":4}, cut: 0
proc_close: 7
popen: popen done
pclose: 0
popen write: 300000
pclose: 0
the child counted: 300000
HOOK_PROC off, fgets: false
exit code: 124
the writer ran after proc_close(): true
