--TEST--
HTTP workers: handlers resolve host names off the loop in forked workers, also when the master resolved one before forking them
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: the resolver runs under valgrind in the single-process tests; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * The master makes a lookup in a coroutine first: its resolver state (a
 * thread started, an eventfd) is copied into the workers it forks, which
 * must each start afresh. The workers inherit the listener the handlers
 * connect to.
 */
$srv = http_server_start('function ($req, $res) use ($port) {
    for ($i = 0; $i < 20; $i++) {
        $c = stream_socket_client("tcp://localhost:$port", $errno, $errstr, 5);
        if ($c === false) {
            break;
        }
        fclose($c);
    }
    $res->end(($c ? "connected" : "failed: $errstr") . " " . getmypid());
}', ['workers' => 2], code: '
$listener = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr, context: stream_context_create(["socket" => ["backlog" => 512]]));
$port = (int) substr(strrchr(stream_socket_get_name($listener, false), ":"), 1);
Rapier\run(function () use ($port) {
    $c = stream_socket_client("tcp://localhost:$port", $errno, $errstr, 5);
    echo "master: ", $c ? "connected" : "failed: $errstr", "\n";
});
');
/*
 * Eight requests at once, so both workers have lookups in flight together.
 * Until both workers are ready the master steers every connection to the
 * one that is, so rounds go on until both have answered.
 */
$outcomes = [];
$pids = [];
for ($round = 0; $round < 10 && count($pids) < 2; $round++) {
    $conns = [];
    for ($i = 0; $i < 8; $i++) {
        $conns[$i] = new HttpTestConn($srv->port);
        $conns[$i]->send("GET /$i HTTP/1.1\r\nHost: x\r\n\r\n");
    }
    foreach ($conns as $c) {
        $r = $c->response(http_test_timeout(10));
        [$outcome, $pid] = explode(' ', $r['body'] ?? 'no-answer 0');
        $outcomes[$outcome] = ($outcomes[$outcome] ?? 0) + 1;
        $pids[$pid] = true;
    }
}
echo "outcomes: ", json_encode($outcomes) === json_encode(['connected' => $round * 8]) ? "all connected" : json_encode($outcomes), "\n";
echo count($pids) === 2 ? "both workers answered\n" : 'workers that answered: ' . count($pids) . "\n";
$output = $srv->output();
$stopped = $srv->stop();
echo str_contains($output, "master: connected") ? "master connected\n" : "master: $output\n";
echo "exit: {$stopped['code']}\n";
/* The master logs each worker's start and stop; anything worse is a failure. */
echo preg_grep('/warning|error|fatal|signal/i', explode("\n", $stopped['err'])) === [] ? "no errors logged\n" : $stopped['err'];
?>
--EXPECT--
outcomes: all connected
both workers answered
master connected
exit: 0
no errors logged
