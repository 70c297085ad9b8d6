--TEST--
HTTP workers: the status counts a response before its client can read it (handler responses, streamed responses, static files), and an open connection from its accept
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: the status socket runs under valgrind in http_workers_two_workers_serve; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
/* Each handler goes on for a while after its response is sent, as handlers that log or clean up do. */
$srv = new WorkersTestServer('function ($req, $res) {
    if ($req->path === "/stream") {
        $res->write("part ");
        $res->end("end");
    } else {
        $res->end("answer");
    }
    usleep(300000);
}', ['workers' => 1, 'document_root' => "$root/pub"]);

$c = new HttpTestConn($srv->port);
$targets = ['/answer', '/style.css', '/stream', '/data.json', '/answer', '/stream'];
foreach ($targets as $i => $target) {
    $c->send("GET $target HTTP/1.1\r\nHost: x\r\n\r\n");
    $r = $c->response();
    /* Read at once: nothing is waited for. */
    $st = $srv->status();
    printf("%-11s %d, status: requests %d, connections %d\n", $target, $r['status'] ?? 0,
        $st['totals']['requests'] ?? -1, $st['totals']['connections'] ?? -1);
}
$c->close();
/* What follows a response (the handler's end, the connection's close) is counted once it has happened. */
$st = $srv->waitStatus(fn($st) => $st['totals']['in_flight'] === 0 && $st['totals']['connections'] === 0, 30,
    'no handler running and no connection open');
echo "after: requests {$st['totals']['requests']}, in flight {$st['totals']['in_flight']}, connections {$st['totals']['connections']}\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
/answer     200, status: requests 1, connections 1
/style.css  200, status: requests 2, connections 1
/stream     200, status: requests 3, connections 1
/data.json  200, status: requests 4, connections 1
/answer     200, status: requests 5, connections 1
/stream     200, status: requests 6, connections 1
after: requests 6, in flight 0, connections 0
exit: 0
leftover processes: none
