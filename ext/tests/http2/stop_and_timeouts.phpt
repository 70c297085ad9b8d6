--TEST--
HTTP/2 timeouts and stopping: an idle connection gets GOAWAY NO_ERROR and a close after keepalive_timeout; a client that never opens its flow-control window has its stream reset after write_timeout, the handler's end() returning false; on SIGTERM a connection with a request in flight gets GOAWAY naming that stream, the request completes, then the connection closes and the server exits 0
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/h2.inc';
$t = http_test_valgrind() ? 3.0 : 0.5;
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/big") {
        echo "end: ", var_export($res->end(str_repeat("x", 100000)), true), "\n";
        return;
    }
    echo "handling ", $req->path, "\n";
    Rapier\Coroutine::sleep(0.5);
    $res->end("done " . $req->path);
}', ['http2' => true, 'keepalive_timeout' => $t, 'write_timeout' => $t]);

$idle = new H2TestConn($srv->port);
foreach ($idle->frames(null, 10) as $f) {
    echo "idle: ", h2_describe($f), "\n";
}
echo "idle closed: ", var_export($idle->closed, true), "\n";

$stuck = new H2TestConn($srv->port, true, [4 => 0]);
$stuck->request(1, 'GET', '/big');
foreach ($stuck->stream(1, 10) as $f) {
    echo "window 0: ", h2_describe($f), "\n";
}
$srv->waitFor("end: ", 10);
$stuck->close();

$c = new H2TestConn($srv->port);
$c->request(1, 'GET', '/slow');
$srv->waitFor("handling /slow", 5);
$srv->signal(15);
foreach ($c->frames(null, 10) as $f) {
    echo "stopping: ", h2_describe($f), "\n";
}
echo "closed: ", var_export($c->closed, true), "\n";
$r = $srv->stop(0);
echo "exit: {$r['code']}\n", $r['out'];
?>
--EXPECT--
idle: GOAWAY last 0 code 0
idle closed: true
window 0: HEADERS
window 0: RST_STREAM code 2
stopping: GOAWAY last 1 code 0
stopping: HEADERS
stopping: DATA end "done \/slow"
closed: true
exit: 0
ready
end: false
handling /slow
start() returned
