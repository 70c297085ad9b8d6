--TEST--
HTTP: exit() in a handler ends its request as a return would; the server and its other requests go on
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    switch ($req->path) {
        case "/exit":
            Rapier\Coroutine::defer(fn () => print("defer ran\n"));
            $res->status(203)->header("X-Exit", "yes");
            try {
                exit(3);
            } finally {
                print("not printed: exit() skips finally blocks\n");
            }
        case "/exit-message":
            exit("the message goes to the output, not the response\n");
        case "/exit-after-write":
            $res->write("partial;");
            exit();
        case "/slow":
            Rapier\Coroutine::sleep(0.3);
            $res->end("slow done");
            return;
        default:
            $res->end("fine");
    }
}');
$slow = new HttpTestConn($srv->port);
$slow->send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
usleep(50000);

$c = new HttpTestConn($srv->port);
$c->send("GET /exit HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo $r['status'], ' x-exit: ', $r['headers']['x-exit'][0] ?? '-', ' content-length: ',
    $r['headers']['content-length'][0] ?? '-', " body: '", $r['body'], "'\n";
$c->send("GET /exit-message HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo $r['status'], " body: '", $r['body'], "'\n";
$c->send("GET /exit-after-write HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response();
echo $r['status'], ' ', $r['headers']['transfer-encoding'][0] ?? '-', " body: '", $r['body'], "'\n";
/* Same connection: every answer above was complete. */
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
echo $c->response()['body'], "\n";

echo "the slow request: ", $slow->response()['body'] ?? 'lost', "\n";

$r = $srv->stop();
echo "exit code: {$r['code']}\n";
echo $r['out'];
echo trim($r['err']) === '' ? "nothing logged\n" : "logged: {$r['err']}\n";
?>
--EXPECT--
203 x-exit: yes content-length: 0 body: ''
200 body: ''
200 chunked body: 'partial;'
fine
the slow request: slow done
exit code: 0
ready
defer ran
the message goes to the output, not the response
start() returned
nothing logged
