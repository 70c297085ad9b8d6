--TEST--
HTTP: malformed request lines get 400 and a close; the server keeps serving others
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }');
$cases = [
    "GET\r\n\r\n",
    "GET /\r\n\r\n",
    "GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
    "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET / FOO/1.1\r\nHost: x\r\n\r\n",
    "GET / HTTP/1.1\nHost: x\n\n",
    "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
    " GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
    "GET / HTTP/1.1\r\n\r\n",
];
foreach ($cases as $raw) {
    $c = new HttpTestConn($srv->port);
    $c->send($raw);
    $r = $c->response();
    echo json_encode($raw, JSON_INVALID_UTF8_SUBSTITUTE), ': ', $r ? "{$r['status']} {$r['reason']}" : 'no response', $c->closedWithin(3) ? ', closed' : ', still open', "\n";
    echo "  then: ", http_get($srv->port, '/')['body'], "\n";
}
http_report_stop($srv);
?>
--EXPECT--
"GET\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/\r\n\r\n": 505 HTTP Version Not Supported, closed
  then: ok
"GET \/ HTTP\/1.1 extra\r\nHost: x\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/a b HTTP\/1.1\r\nHost: x\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/ FOO\/1.1\r\nHost: x\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/ HTTP\/1.1\nHost: x\n\n": 400 Bad Request, closed
  then: ok
"\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\ufffd\u0003\u0003": 400 Bad Request, closed
  then: ok
" GET \/ HTTP\/1.1\r\nHost: x\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/\u0000 HTTP\/1.1\r\nHost: x\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/ HTTP\/1.1\r\nHost: x\r\n folded\r\n\r\n": 400 Bad Request, closed
  then: ok
"GET \/ HTTP\/1.1\r\n\r\n": 400 Bad Request, closed
  then: ok
exit: 0
