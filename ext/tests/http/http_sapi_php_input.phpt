--TEST--
HTTP: php://input in a request handler is that request's body, as under php-fpm: read again from its start, through php://filter, from the file of a spooled body, per request when handlers interleave; empty for multipart; stock PHP outside a handler and in coroutines a handler starts
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $out = ["first" => md5(file_get_contents("php://input"))];
    if ($req->path === "/slow") {
        usleep(200000);
    }
    $out["again"] = md5(file_get_contents("php://input"));
    $out["fopen"] = md5(stream_get_contents(fopen("PHP://Input", "rb")));
    $out["filter"] = md5(file_get_contents("php://filter/read=string.rot13/resource=php://input"));
    $out["spooled"] = $req->bodyFile() !== null;
    $ch = new Rapier\Channel(1);
    Rapier\go(function () use ($ch) {
        $ch->push(file_get_contents("php://input"));
    });
    $out["in_go"] = $ch->pop();
    $res->json($out);
}', ['body_buffer_size' => 4096], 'function on_worker_start($server, $id) {
    echo "outside a handler: ", var_export(file_get_contents("php://input"), true), "\n";
}');
echo trim(str_replace("ready", "", $srv->output())), "\n";
$put = fn(string $path, string $body) => "PUT $path HTTP/1.1\r\nHost: x\r\nContent-Length: " . strlen($body) . "\r\n\r\n" . $body;
$check = function (string $what, string $body, array $j) {
    $ok = $j['first'] === md5($body) && $j['again'] === md5($body) && $j['fopen'] === md5($body)
        && $j['filter'] === md5(str_rot13($body));
    echo "$what: ", $ok ? 'the body' : json_encode($j), ", spooled ", var_export($j['spooled'], true),
        ", in a coroutine it started: ", var_export($j['in_go'], true), "\n";
};

$c = new HttpTestConn($srv->port);
$c->send($put('/', 'hello body'));
$check('10 bytes', 'hello body', json_decode($c->response()['body'], true));
$big = str_repeat('spooled body ', 1000);
$c->send($put('/', $big));
$check('13000 bytes', $big, json_decode($c->response()['body'], true));
$c->send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
$check('GET', '', json_decode($c->response()['body'], true));
$c->close();

/* Two handlers at once, each waiting between its reads: each reads its own body. */
$a = new HttpTestConn($srv->port);
$b = new HttpTestConn($srv->port);
$a->send($put('/slow', str_repeat('a', 5000)));
$b->send($put('/slow', 'bbb'));
$check('interleaved, first', str_repeat('a', 5000), json_decode($a->response()['body'], true));
$check('interleaved, second', 'bbb', json_decode($b->response()['body'], true));

$form = "--B\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nvalue\r\n--B--\r\n";
$r = http_request($srv->port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: "
    . strlen($form) . "\r\nConnection: close\r\n\r\n" . $form);
$check('multipart (empty, as under php-fpm)', '', json_decode($r['body'], true));
http_report_stop($srv);
?>
--EXPECT--
outside a handler: ''
10 bytes: the body, spooled false, in a coroutine it started: ''
13000 bytes: the body, spooled true, in a coroutine it started: ''
GET: the body, spooled false, in a coroutine it started: ''
interleaved, first: the body, spooled true, in a coroutine it started: ''
interleaved, second: the body, spooled false, in a coroutine it started: ''
multipart (empty, as under php-fpm): the body, spooled false, in a coroutine it started: ''
exit: 0
