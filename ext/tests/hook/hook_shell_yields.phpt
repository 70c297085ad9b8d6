--TEST--
Hook: exec(), system(), passthru(), shell_exec(), backticks, and pclose() and fclose() of a popen() suspend only their coroutine: commands that finish only once another coroutine (or another command) lets them, system() printing each line as it comes, a command that closes its output and exits later; with the flag off they block
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/proc.inc';

/** Runs $call in one coroutine and, once it waits, $let_go in another; returns what $call returned. */
function while_waiting(callable $call, callable $let_go): mixed
{
    $result = null;
    Rapier\run(function () use ($call, $let_go, &$result) {
        Rapier\go($let_go);
        $result = $call();
    });
    return $result;
}

$flag = proc_test_flag('shell');
$touch = function () use ($flag) {
    touch($flag);
};
$waits = fn(string $then) => proc_test_bounded(proc_test_wait_for($flag, $then));

$last = while_waiting(function () use ($waits, &$lines, &$code) {
    return exec($waits('echo first; echo "second  "; exit 3'), $lines, $code);
}, $touch);
echo 'exec: ', json_encode([$last, $lines, $code]), "\n";
unlink($flag);

ob_start();
$last = while_waiting(function () use ($flag, &$code) {
    return system(proc_test_bounded('echo "  line 1"; ' . proc_test_wait_for($flag, 'echo "line 2 "')), $code);
}, function () use ($flag) {
    // Lets the command go on only once system() has printed its first line.
    while (!str_contains(ob_get_contents(), 'line 1')) {
        usleep(1000);
    }
    echo "  (the other coroutine ran)\n";
    touch($flag);
});
$printed = ob_get_clean();
echo "system:\n", $printed;
echo 'system returned: ', json_encode([$last, $code]), "\n";
unlink($flag);

ob_start();
$returned = while_waiting(function () use ($waits, &$code) {
    return passthru($waits('printf "raw\\000bytes\\n"; exit 9'), $code);
}, $touch);
$printed = ob_get_clean();
echo 'passthru: ', json_encode([$printed, $returned, $code]), "\n";
unlink($flag);

$out = while_waiting(fn() => shell_exec($waits('echo shell_exec')), $touch);
echo 'shell_exec: ', json_encode($out), "\n";
unlink($flag);

$out = while_waiting(fn() => `{$waits('echo backticks')}`, $touch);
echo 'backticks: ', json_encode($out), "\n";
unlink($flag);

// The command closes its output at once and exits only later: the wait for its exit yields too.
$last = while_waiting(function () use ($waits, &$code) {
    return exec('echo early; exec >&-; ' . $waits('exit 5'), $lines, $code);
}, $touch);
echo 'closed output, later exit: ', json_encode([$last, $code]), "\n";
unlink($flag);

// pclose() waits in the loop for a command that exits only once another coroutine lets it.
$code = while_waiting(function () use ($waits) {
    $pipe = popen($waits('cat > /dev/null; exit 7'), 'w');
    fwrite($pipe, "input\n");
    return pclose($pipe);
}, $touch);
echo 'pclose: ', $code, "\n";
unlink($flag);

// So does fclose(): the command writes its input to a file only once let go, before fclose() returns.
$copy = proc_test_flag('copy');
$closed = while_waiting(function () use ($waits, $copy) {
    $pipe = popen($waits('cat > ' . escapeshellarg($copy)), 'w');
    fwrite($pipe, "input\n");
    return fclose($pipe);
}, $touch);
echo 'fclose: ', json_encode([$closed, file_get_contents($copy)]), "\n";
unlink($flag);
unlink($copy);

// Two commands at once, each let go by the other's: possible only if neither blocks the process.
$other = proc_test_flag('other');
$done = [];
Rapier\run(function () use ($flag, $other, &$done) {
    Rapier\go(function () use ($flag, $other, &$done) {
        $done['a'] = exec(proc_test_bounded('touch ' . escapeshellarg($other) . '; ' . proc_test_wait_for($flag, 'echo a done')));
    });
    $done['b'] = exec(proc_test_bounded(proc_test_wait_for($other, 'touch ' . escapeshellarg($flag) . '; echo b done')));
});
ksort($done);
echo 'two at once: ', json_encode($done), "\n";
unlink($flag);
unlink($other);

// With the flag off, exec() blocks: the command gives up (timeout's 124) before the other coroutine can let it go.
Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_PROC);
$last = while_waiting(function () use ($flag, &$code) {
    return exec(proc_test_bounded(proc_test_wait_for($flag, 'echo let go'), 1), $lines, $code);
}, $touch);
echo 'HOOK_PROC off: ', json_encode([$last, $code]), "\n";
unlink($flag);
?>
--EXPECT--
exec: ["second",["first","second"],3]
system:
  line 1
  (the other coroutine ran)
line 2 
system returned: ["line 2",0]
passthru: ["raw\u0000bytes\n",null,9]
shell_exec: "shell_exec\n"
backticks: "backticks\n"
closed output, later exit: ["early",5]
pclose: 7
fclose: [true,"input\n"]
two at once: {"a":"a done","b":"b done"}
HOOK_PROC off: ["",124]
