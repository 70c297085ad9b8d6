--TEST--
Hook: exec(), system(), passthru(), shell_exec() and backticks in a coroutine answer as stock PHP does outside one (lines, stripping, last line, result codes, signals, binary output, long lines, empty output, argument errors), and so do popen(), pclose() and fclose(); a cancel kills and reaps the command, while it reads, while it waits for the exit, or in pclose() or fclose()
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/proc.inc';

/** What a series of shell calls answers; the same outside a run and in a coroutine. */
function shell_transcript(): array
{
    $t = [];
    $t['exec'] = exec("printf 'a  \\nb\\t\\n\\n\\rc\\r\\nlast  '", $lines, $code);
    $t['exec lines'] = [$lines, $code];
    $kept = ['kept'];
    exec('echo appended', $kept);
    $t['exec appends'] = $kept;
    $not_array = 'a string';
    exec('echo replaced', $not_array);
    $t['exec replaces a non-array'] = $not_array;
    $t['exec result_code'] = [exec('echo one; echo two; exit 3', result_code: $code), $code];
    $t['exec no output'] = exec('true');
    $t['exec empty last line'] = exec("printf 'a\\n\\n'");
    $t['exec by signal'] = [exec('echo x; kill -KILL $$', $l, $code), $code];
    $t['exec not found'] = [exec('/nonexistent/command 2>/dev/null', $l, $code), $code];
    $t['exec long line'] = [exec('head -c 100000 /dev/zero | tr "\\0" x; echo; echo tail', $long), strlen($long[0])];
    $t['exec no final newline over a chunk'] = strlen(exec('head -c 9000 /dev/zero | tr "\\0" y'));
    ob_start();
    $t['system'] = [system("printf 'x\\ny\\nz  \\n'; exit 4", $code), $code];
    $t['system printed'] = ob_get_clean();
    ob_start();
    $t['passthru'] = [passthru("printf 'bin\\000ary'; kill -TERM \$\$", $code), $code];
    $t['passthru printed'] = bin2hex(ob_get_clean());
    $t['shell_exec'] = shell_exec("printf 'hello\\nworld'");
    $t['shell_exec no output'] = shell_exec('true');
    $t['shell_exec 1 MB'] = md5(shell_exec('head -c 1048576 /dev/zero | tr "\\0" z'));
    $t['backticks'] = `echo back`;
    $t['environment'] = (putenv('RAPIER_SHELL_TEST=from putenv') ? shell_exec('echo "$RAPIER_SHELL_TEST"') : null);
    foreach (['exec', 'system', 'passthru', 'shell_exec'] as $f) {
        foreach (['', "a\0b"] as $bad) {
            try {
                $f($bad);
            } catch (ValueError $e) {
                $t["$f(" . json_encode($bad) . ')'] = $e->getMessage();
            }
        }
    }
    return $t;
}

$stock = shell_transcript();
Rapier\run(function () use (&$hooked) {
    $hooked = shell_transcript();
});
echo 'same: ', var_export($stock === $hooked, true), "\n";
if ($stock !== $hooked) {
    var_dump($stock, $hooked);
}
echo json_encode(array_slice($hooked, 0, 4)), "\n";

/** popen() and pclose(), fclose() and dropping a popen() stream: the same in a coroutine. */
function popen_transcript(): array
{
    $t = [];
    $pipe = popen('echo hi; exit 3', 'r');
    $t['meta'] = stream_get_meta_data($pipe);
    $t['read'] = stream_get_contents($pipe);
    $t['pclose'] = pclose($pipe);
    $count = proc_test_flag('count');
    $pipe = popen('wc -c > ' . escapeshellarg($count) . '; exit 4', 'wb');
    $t['write'] = fwrite($pipe, str_repeat('z', 200000));
    $t['pclose after write'] = pclose($pipe);
    $t['counted'] = trim(file_get_contents($count));
    unlink($count);
    $t['pclose of a signaled command'] = pclose(popen('kill -TERM $$', 'r'));
    $pipe = popen('echo x; exit 5', 'r');
    $t['fclose'] = [fgets($pipe), fclose($pipe)];
    $pipe = popen('exit 6', 'r');
    unset($pipe);
    foreach (['', 'b', 'rbb', 'x', 'rw', 're'] as $mode) {
        try {
            $pipe = @popen('true', $mode);
            $t["mode '$mode'"] = [is_resource($pipe) ? pclose($pipe) : $pipe, error_get_last()['message'] ?? null];
            error_clear_last();
        } catch (ValueError $e) {
            $t["mode '$mode'"] = $e->getMessage();
        }
    }
    return $t;
}

$stock = popen_transcript();
Rapier\run(function () use (&$hooked) {
    $hooked = popen_transcript();
});
echo 'popen same: ', var_export($stock === $hooked, true), "\n";
if ($stock !== $hooked) {
    var_dump($stock, $hooked);
}
echo 'written, counted, pclose: ', json_encode([$hooked['write'], $hooked['counted'], $hooked['pclose after write']]), "\n";

// A popen() stream opened in a coroutine and closed outside one: pclose() waits as PHP's does.
Rapier\run(function () use (&$pipe) {
    $pipe = popen('echo later; exit 8', 'r');
});
echo 'pclose outside the run: ', trim(fgets($pipe)), ' ', pclose($pipe), "\n";
Rapier\run(function () use (&$pipe) {
    $pipe = popen('echo later; exit 8', 'r');
});
echo 'fclose outside the run: ', trim(fgets($pipe)), ' ', var_export(fclose($pipe), true), "\n";

/*
 * Cancels the coroutine running $command once the command has written its
 * pid to $pid_file; prints the exception (fd and pid made N) and whether
 * the command's process is gone (killed and reaped: not even a zombie).
 * With $close (pclose or fclose) the coroutine closes a popen() of the
 * command instead of running it with exec().
 */
function cancel_while(string $command, string $pid_file, ?string $close = null): void
{
    $pid = 0;
    Rapier\run(function () use ($command, $pid_file, $close, &$pid) {
        $runner = Rapier\go(function () use ($command, $close) {
            try {
                if ($close !== null) {
                    $close(popen($command, 'r'));
                } else {
                    exec($command);
                }
                echo "not canceled\n";
            } catch (Rapier\CanceledException $e) {
                echo get_class($e), ': ', preg_replace('/\d+/', 'N', $e->getMessage()), "\n";
            }
        });
        while (($pid = (int) @file_get_contents($pid_file)) === 0) {
            usleep(1000);
        }
        echo 'cancel: ', var_export(Rapier\Coroutine::cancel($runner), true), "\n";
    });
    echo 'the command is gone: ', var_export(!file_exists("/proc/$pid"), true), "\n";
    unlink($pid_file);
}

$pid_file = proc_test_flag('pid');
$file = escapeshellarg($pid_file);
cancel_while("echo \$\$ > $file.tmp; mv $file.tmp $file; exec sleep 30", $pid_file);
cancel_while("exec >&-; echo \$\$ > $file.tmp; mv $file.tmp $file; exec sleep 30", $pid_file);
cancel_while("echo \$\$ > $file.tmp; mv $file.tmp $file; exec sleep 30", $pid_file, close: 'pclose');
cancel_while("echo \$\$ > $file.tmp; mv $file.tmp $file; exec sleep 30", $pid_file, close: 'fclose');

?>
--EXPECT--
same: true
{"exec":"last","exec lines":[["a","b","","\rc","last"],0],"exec appends":["kept","appended"],"exec replaces a non-array":["replaced"]}
popen same: true
written, counted, pclose: [200000,"200000",4]
pclose outside the run: later 8
fclose outside the run: later true
cancel: true
Rapier\CanceledException: Coroutine was canceled while reading pipe fd N
the command is gone: true
cancel: true
Rapier\CanceledException: Coroutine was canceled while waiting for process N to exit
the command is gone: true
cancel: true
Rapier\CanceledException: Coroutine was canceled while waiting for process N to exit
the command is gone: true
cancel: true
Rapier\CanceledException: Coroutine was canceled while waiting for process N to exit
the command is gone: true
