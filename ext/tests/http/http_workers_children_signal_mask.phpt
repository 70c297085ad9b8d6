--TEST--
HTTP workers: programs a handler starts (proc_open(), shell_exec()) do not inherit the signals the worker blocks or ignores for its own use: proc_terminate() stops them
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip under valgrind the SIGTERM the handler sends right after proc_open() can reach the child before it execs sleep, while valgrind still handles its signals, and is lost; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$srv = new WorkersTestServer('function ($req, $res) {
    $blocked = fn(string $status): string => preg_match("/^SigBlk:\\s*(\\S+)/m", $status, $m) ? $m[1] : "?";
    $ignored = fn(string $status): string => preg_match("/^SigIgn:\\s*(\\S+)/m", $status, $m) ? $m[1] : "?";
    $p = proc_open(["cat", "/proc/self/status"], [1 => ["pipe", "w"]], $pipes);
    $fromProcOpen = stream_get_contents($pipes[1]);
    proc_close($p);
    /* A program that waits until it is stopped: SIGTERM must reach it. */
    $p = proc_open(["sleep", "60"], [], $pipes);
    proc_terminate($p, SIGTERM);
    /* PHP 8.2 reports how a child ended only to the proc_get_status() call that reaps it. */
    for ($i = 0; ($st = proc_get_status($p))["running"] && $i < 200; $i++) {
        usleep(10000);
    }
    if ($st["running"]) {
        proc_terminate($p, SIGKILL);
    }
    proc_close($p);
    $res->json([
        "proc_open" => $blocked($fromProcOpen),
        "ignored" => $ignored($fromProcOpen),
        "shell_exec" => $blocked($fromShellExec = (string) shell_exec("cat /proc/self/status")),
        "shell_exec_ignored" => $ignored($fromShellExec),
        "terminated" => $st["signaled"] ? $st["termsig"] : "still running after 2 s",
    ]);
}', ['workers' => 1]);
$r = workers_get_json($srv->port, '/');
/* What a child of plain PHP ignores (the CLI ignores SIGPIPE). */
$p = proc_open(['cat', '/proc/self/status'], [1 => ['pipe', 'w']], $pipes);
$stock = preg_match('/^SigIgn:\s*(\S+)/m', stream_get_contents($pipes[1]), $m) ? $m[1] : '?';
proc_close($p);
echo "proc_open child blocks: {$r['proc_open']}, ignores as a child of plain PHP: ",
    $r['ignored'] === $stock ? 'true' : "false ({$r['ignored']}, not $stock)", "\n";
/* What shell_exec()'s command ignores in plain PHP: libc's posix_spawn() also leaves its own two signals ignored. */
$stockShell = preg_match('/^SigIgn:\s*(\S+)/m', shell_exec('cat /proc/self/status'), $m) ? $m[1] : '?';
echo "shell_exec child blocks: {$r['shell_exec']}, ignores as a child of plain PHP: ",
    $r['shell_exec_ignored'] === $stockShell ? 'true' : "false ({$r['shell_exec_ignored']}, not $stockShell)", "\n";
echo "sleep ended by signal: {$r['terminated']}\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
proc_open child blocks: 0000000000000000, ignores as a child of plain PHP: true
shell_exec child blocks: 0000000000000000, ignores as a child of plain PHP: true
sleep ended by signal: 15
exit: 0
leftover processes: none
