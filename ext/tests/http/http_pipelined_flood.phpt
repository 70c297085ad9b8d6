--TEST--
HTTP: a thousand pipelined requests in one write, a throwing handler among them, are all answered in order
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/throw") {
        throw new Exception("in the middle");
    }
    $res->end("r" . substr($req->path, 1) . ":" . $req->body());
}');
$wire = '';
for ($i = 0; $i < 1000; $i++) {
    $wire .= $i === 500 ? "GET /throw HTTP/1.1\r\nHost: x\r\n\r\n"
        : ($i % 2 ? "GET /$i HTTP/1.1\r\nHost: x\r\n\r\n" : "POST /$i HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nb" . ($i % 10) . "!");
}
$c = new HttpTestConn($srv->port);
$c->send($wire . "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$bad = [];
for ($i = 0; $i < 1000; $i++) {
    $r = $c->response(5);
    $want = $i === 500 ? '' : ($i % 2 ? "r$i:" : "r$i:b" . ($i % 10) . "!");
    if ($r === null || ($i === 500 ? $r['status'] !== 500 : $r['body'] !== $want)) {
        $bad[] = $i;
    }
}
echo "wrong answers: ", json_encode($bad), "\n";
echo $c->response()["body"], "\n";
var_dump($c->closedWithin(3));
$r = $srv->stop();
echo "exit: {$r['code']}\n";
?>
--EXPECT--
wrong answers: []
rlast:
bool(true)
exit: 0
