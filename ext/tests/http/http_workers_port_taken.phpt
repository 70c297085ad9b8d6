--TEST--
HTTP workers: start() of a second server with workers on a port a multi-process server already serves throws Rapier\Exception, and the first server is untouched
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';
$first = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2]);
$before = $first->readyPids($first->status());

$self = getmypid();
$s = new Rapier\Http\Server('127.0.0.1', $first->port, ['workers' => 2]);
$s->on('workerStart', function () use ($self) {
    /* Reached only when the bind wrongly succeeded: stop this master at once. */
    echo "second server started\n";
    exec("kill -TERM $self");
});
$s->on('request', fn($req, $res) => $res->end("second"));
try {
    $s->start();
    echo "start() returned\n";
} catch (Rapier\Exception $e) {
    echo get_class($e), ": ", preg_replace('~:\d+:~', ':PORT:', $e->getMessage()), "\n";
}
if (getmypid() !== $self) {
    exit(0);
}

$st = $first->status();
echo "first server: same workers ", var_export($first->readyPids($st) === $before, true), ", restarts {$st['restarts']}\n";
$seen = [];
for ($i = 0; $i < 10; $i++) {
    $j = workers_get_json($first->port);
    $seen[] = $j !== null && in_array($j['pid'], $before, true) ? 'first' : 'other';
}
echo "answers: ", implode(',', array_unique($seen)), "\n";
workers_report_stop($first->stop());
?>
--EXPECT--
Rapier\Exception: Cannot listen on 127.0.0.1:PORT: Address already in use
first server: same workers true, restarts 0
answers: first
exit: 0
leftover processes: none
