--TEST--
HTTP: a Response kept after its handler returned cannot write into the next request on the same connection
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    global $old;
    if ($req->path === "/first") {
        $old = $res;
        $res->end("first");
        return;
    }
    $log = "stale writable: " . var_export($old->isWritable(), true);
    foreach (["write", "end"] as $method) {
        try {
            $old->$method("INJECTED");
            $log .= ", stale $method accepted";
        } catch (Rapier\Exception $e) {
            $log .= ", " . $e->getMessage();
        }
    }
    try {
        $old->status(500);
    } catch (Rapier\Exception $e) {
        $log .= ", " . $e->getMessage();
    }
    $res->end($log);
}');
$c = new HttpTestConn($srv->port);
$c->send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
echo $c->response()['body'], "\n";
$c->send("GET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$all = $c->readAll(3);
echo substr($all, 0, strpos($all, "\r\n")), "\n", substr($all, strpos($all, "\r\n\r\n") + 4), "\n";
http_report_stop($srv);
?>
--EXPECT--
first
HTTP/1.1 200 OK
stale writable: false, Cannot write: its request handler has returned, which ended the response (a coroutine writing it must be waited for before the handler returns, with a Rapier\WaitGroup for example), Cannot end the response: its request handler has returned, which ended the response (a coroutine writing it must be waited for before the handler returns, with a Rapier\WaitGroup for example), Cannot set the status: its request handler has returned, which ended the response (a coroutine writing it must be waited for before the handler returns, with a Rapier\WaitGroup for example)
exit: 0
