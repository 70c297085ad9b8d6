--TEST--
HTTP: a stop that drains the server while workerStart still waits leaves workerStart alone, and what it started is canceled once it returns; a workerStart that throws is not held up by what it started
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$ticker = <<<'PHP'
function start_ticker() {
    Rapier\go(function () {
        try {
            while (true) {
                Rapier\Coroutine::sleep(0.05);
            }
        } finally {
            echo "ticker loop: finally\n";
        }
    });
}
PHP;
$handler = 'function ($req, $res) { $res->end("ok"); }';

echo "-- a stop while workerStart waits\n";
$code = $ticker . <<<'PHP'
function on_worker_start($server, $id) {
    start_ticker();
    /* The stop drains the server (no connection is open) while this waits for kill, then sleeps. */
    exec('kill -15 ' . getmypid());
    Rapier\Coroutine::sleep(0.2);
    echo "workerStart returns\n";
}
PHP;
$after = '$server->on("workerStop", function () { echo "workerStop\n"; });';
$srv = http_server_start($handler, ['workers' => 0], $code, $after);
$r = $srv->stop(0, 20);
echo "exit: {$r['code']}\n", $r['out'];
echo "stderr: ", trim($r['err']) ?: 'nothing reported', "\n";

echo "-- workerStart throws\n";
$script = tempnam(sys_get_temp_dir(), 'rapier-http-test-');
file_put_contents($script, "<?php\n" . $ticker . <<<'PHP'

$server = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0]);
$server->on('workerStart', function () {
    start_ticker();
    throw new RuntimeException('the application does not load');
});
$server->on('request', fn ($req, $res) => $res->end());
$server->start();
PHP);
$cmd = [PHP_BINARY, '-n', '-d', 'extension=' . http_test_extension_path(), '-d', 'display_errors=stderr', $script];
$proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$deadline = microtime(true) + http_test_timeout(10);
while (($st = proc_get_status($proc))['running'] && microtime(true) < $deadline) {
    usleep(20000);
}
if ($st['running']) {
    proc_terminate($proc, 9);
    echo "still running: killed\n";
}
echo stream_get_contents($pipes[1]);
$reported = str_contains(stream_get_contents($pipes[2]), 'Uncaught RuntimeException: the application does not load');
echo $reported ? "the exception reported\n" : "no report\n";
proc_close($proc);
echo "exit: {$st['exitcode']}\n";
unlink($script);
?>
--EXPECT--
-- a stop while workerStart waits
exit: 0
workerStop
workerStart returns
ready
ticker loop: finally
start() returned
stderr: nothing reported
-- workerStart throws
ticker loop: finally
the exception reported
exit: 255
