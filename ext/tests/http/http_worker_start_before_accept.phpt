--TEST--
HTTP: no connection is accepted until workerStart has returned, even while workerStart waits on I/O (in one process and in a forked worker)
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
/*
 * workerStart sends a request to its own server from another coroutine,
 * then sleeps (a coroutine wait: the loop runs on) before the application
 * counts as booted. The early request must be answered by a booted one.
 */
$code = 'function on_worker_start($server, $id) {
    global $http_test_port, $booted;
    $port = $http_test_port;
    Rapier\go(function () use ($port) {
        $c = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 10);
        fwrite($c, "GET /early HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        $answer = stream_get_contents($c);
        echo "early request: ", substr($answer, strpos($answer, "\r\n\r\n") + 4), "\n";
    });
    usleep(300000);
    $booted = true;
}';
$handler = 'function ($req, $res) { global $booted; $res->end($booted ? "booted" : "NOT BOOTED"); }';
foreach ([0, 1] as $workers) {
    $options = ['workers' => $workers];
    /* The server script sets $http_test_port before it starts. */
    $srv = $workers ? new WorkersTestServer($handler, $options, $code) : http_server_start($handler, $options, $code);
    $http = $srv instanceof WorkersTestServer ? $srv->http : $srv;
    echo "workers $workers: ", $http->waitFor("early request: ", 5) && $http->waitFor("\n", 1) ? "" : "no early answer\n";
    $r = $workers ? $srv->stop() : $http->stop();
    preg_match('/early request: .*/', $r['out'], $m);
    echo $m[0] ?? 'none', "\n";
}
?>
--EXPECT--
workers 0: early request: booted
workers 1: early request: booted
