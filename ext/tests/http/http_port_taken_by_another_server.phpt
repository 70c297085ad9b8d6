--TEST--
HTTP: start() refuses a port another Rapier server already listens on (SO_REUSEPORT must not let it share silently)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$first = http_server_start('function ($req, $res) { $res->end("first"); }');
$s = new Rapier\Http\Server('127.0.0.1', $first->port, ['workers' => 0]);
$s->on('workerStart', function () {
    /* Reached only when the bind wrongly succeeded: stop at once. */
    echo "second server started\n";
    exec("kill -TERM " . getmypid());
});
$s->on('request', fn($req, $res) => $res->end("second"));
try {
    $s->start();
} catch (Rapier\Exception $e) {
    echo preg_replace('~:\d+:~', ':PORT:', $e->getMessage()), "\n";
}
http_report_stop($first);
?>
--EXPECT--
Cannot listen on 127.0.0.1:PORT: Address already in use
exit: 0
