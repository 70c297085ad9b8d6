--TEST--
HTTP: exit() in workerStopping or workerStop ends the process there with its status: after workerStopping a handler still running is cut off and workerStop is skipped, start() does not return and shutdown functions run; with workers, that worker exits with its status and the stopping master does not replace it
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$handler = 'function ($req, $res) {
    echo "handling\n";
    Rapier\Coroutine::sleep(30);
    $res->end("late");
}';
$events = static fn (string $exitIn): string => <<<PHP
\$server->on('workerStopping', function (\$server, \$id) {
    echo "workerStopping\\n";
    if ('$exitIn' === 'workerStopping') {
        exit(3);
    }
});
\$server->on('workerStop', function (\$server, \$id) {
    echo "workerStop\\n";
    if ('$exitIn' === 'workerStop') {
        exit(4);
    }
});
register_shutdown_function(function () { echo "shutdown function\\n"; });
PHP;

/* workers 0: the process is the server. */
$srv = http_server_start($handler, [], '', $events('workerStopping'));
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("handling\n", 3);
$r = $srv->stop();
echo "client cut off: ", var_export($c->closedWithin(3), true), "\n";
echo "exit: {$r['code']}\n", $r['out'];

$srv = http_server_start($handler, [], '', $events('workerStop'));
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['out'];

/* With a worker: the master logs its status and stops without starting another. */
$srv = new WorkersTestServer($handler, ['workers' => 1], '', $events('workerStop'));
$r = $srv->stop();
workers_report_stop($r);
echo preg_match('~worker #0 \(pid \d+, generation 1\) exited with code 4~', $r['err']) ? "worker exited with code 4\n" : $r['err'];
echo "workers started: ", preg_match_all('~started worker #~', $r['err']), "\n";
echo $r['out'];
?>
--EXPECT--
client cut off: true
exit: 3
ready
handling
workerStopping
shutdown function
exit: 4
ready
workerStopping
workerStop
shutdown function
exit: 0
leftover processes: none
worker exited with code 4
workers started: 1
ready
workerStopping
workerStop
shutdown function
start() returned
shutdown function
