--TEST--
HTTP messages and tasks: a process of another user that connects to a worker's message or task listener (abstract Unix addresses have no file permissions) is closed unread, so nothing it sends is unserialized; the same frames from the server's own user are handled
--EXTENSIONS--
rapier
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('posix_geteuid') ? trim((string) shell_exec('id -u')) !== '0' : posix_geteuid() !== 0) die('skip needs root, to run a client as another user');
if (!is_executable('/usr/bin/setpriv')) die('skip needs setpriv (util-linux)');
if (rapier_test_under_valgrind()) die('skip setpriv is not ours to trace under valgrind; the asan stage runs it');
?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$after = '$server->on("task", function ($data) {
    echo "task: $data\n";
    return $data;
});
$server->on("message", function ($message) {
    echo "message: $message\n";
});';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1, 'task_workers' => 1], '', $after);

/** Connects to each address as $user, sends a task call and a message, and says whether the server closed at once. */
function send_frames(array $names, string $text, ?string $user): string
{
    $code = '$out = [];
    foreach (json_decode($argv[1]) as $name) {
        $s = stream_socket_client("unix://\0" . $name, $errno, $errstr, 2);
        if ($s === false) { $out[] = "no connection"; continue; }
        @fwrite($s, base64_decode($argv[2]));
        stream_set_timeout($s, 1);
        while (!feof($s) && ($r = fread($s, 65536)) !== false && !stream_get_meta_data($s)["timed_out"]) {}
        $out[] = feof($s) ? "closed" : "kept open";
        fclose($s);
    }
    echo implode(", ", $out);';
    /* A task call and a message, to each listener: one of them is what it takes. */
    $frames = workers_channel_frame(serialize($text), 1, 7) . workers_channel_frame(serialize($text), 5, 0);
    $cmd = [PHP_BINARY, '-n', '-r', $code, json_encode($names), base64_encode($frames)];
    if ($user !== null) {
        $cmd = ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...$cmd];
    }
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    proc_close($p);
    return $out;
}

$st = $srv->status();
$taskWorker = array_values(array_filter($st['workers'], fn($w) => $w['role'] === 'task_worker'))[0]['pid'];
$worker = array_values(array_filter($st['workers'], fn($w) => $w['role'] === 'worker'))[0]['pid'];
$names = [...workers_abstract_listeners($worker), ...workers_abstract_listeners($taskWorker)];
echo "listeners: ", count($names), " (the worker's message listener; the task worker's task and message listeners)\n";

echo "as nobody: ", send_frames($names, 'from nobody', 'nobody'), "\n";
echo "as the server's user: ", send_frames($names, 'from its user', null), "\n";
$srv->http->waitFor("task: from its user", 5);
$deadline = microtime(true) + http_test_timeout(5);
while (substr_count($srv->http->output(), "message: from its user") < 2 && microtime(true) < $deadline) {
    usleep(10000);
}
$out = $srv->http->output();
echo "handled from nobody: ", substr_count($out, 'from nobody'), "\n";
echo "handled from its user: ", substr_count($out, "task: from its user"), " task, ",
    substr_count($out, "message: from its user"), " messages\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
listeners: 3 (the worker's message listener; the task worker's task and message listeners)
as nobody: closed, closed, closed
as the server's user: kept open, kept open, kept open
handled from nobody: 0
handled from its user: 1 task, 2 messages
exit: 0
leftover processes: none
