--TEST--
HTTP workers: start() refuses to run when the pid file names a live server (Rapier\Exception, an error logged, no worker forked) and leaves that server's pid file and status socket alone
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: the pid file runs under valgrind in http_workers_two_workers_serve; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$first = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2]);

/* The second server runs in a process of its own: its master logs to stderr, which is checked apart. */
$port = http_test_free_port();
$script = tempnam(sys_get_temp_dir(), 'rapier-workers-second-');
register_shutdown_function(fn() => @unlink($script));
file_put_contents($script, '<?php
$s = new Rapier\Http\Server("127.0.0.1", ' . $port . ', ["workers" => 2, "pid_file" => ' . var_export($first->pidFile, true) . ']);
$s->on("workerStart", function () { echo "a worker of the second server started\n"; });
$s->on("request", fn($req, $res) => $res->end("second"));
try {
    $s->start();
    echo "start() returned\n";
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
');
$p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . http_test_extension_path(), $script],
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
fclose($pipes[0]);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
echo "second server's exit code: ", proc_close($p), "\n";
echo str_replace($first->pidFile, 'PIDFILE', $out);
echo "logged: ", var_export(str_contains($err, "error: pid file {$first->pidFile} names running process {$first->masterPid}"), true), "\n";

echo "pid file still names the first master: ", var_export(file_get_contents($first->pidFile) === "{$first->masterPid}\n", true), "\n";
$st = $first->status();
echo "first server's status socket answers: ", var_export($st !== null && $st['master']['pid'] === $first->masterPid, true), "\n";
echo "second port unused: ", var_export(@stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1) === false, true), "\n";
workers_report_stop($first->stop());
?>
--EXPECT--
second server's exit code: 0
Rapier\Exception: Cannot start: another server is running with pid file PIDFILE (stop it, or remove a stale file)
logged: true
pid file still names the first master: true
first server's status socket answers: true
second port unused: true
exit: 0
leftover processes: none
