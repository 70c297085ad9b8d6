--TEST--
HTTP: Request::server() returns $_SERVER-compatible keys
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->json([$req->server(), $req->remoteAddress, $req->remotePort, $req->method]); }');
$c = new HttpTestConn($srv->port);
$local = stream_socket_get_name($c->sock, false);
$body = 'x=1';
$c->send("POST /a%2Fb/c?x=1&y=2 HTTP/1.1\r\nHost: example.test:8080\r\nUser-Agent: t/1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    . "Content-Length: 3\r\nX-Forwarded-For: 10.0.0.1\r\nConnection: close\r\n\r\n$body");
[$s, $addr, $port, $method] = json_decode($c->response()['body'], true);
foreach (['REQUEST_METHOD', 'REQUEST_URI', 'PATH_INFO', 'QUERY_STRING', 'SERVER_PROTOCOL', 'HTTP_HOST', 'HTTP_USER_AGENT',
    'CONTENT_TYPE', 'CONTENT_LENGTH', 'HTTP_X_FORWARDED_FOR', 'HTTP_CONNECTION', 'REMOTE_ADDR'] as $k) {
    echo $k, ' = ', var_export($s[$k] ?? null, true), "\n";
}
var_dump($s['SERVER_PORT'] === $srv->port);
var_dump("{$s['REMOTE_ADDR']}:{$s['REMOTE_PORT']}" === $local, "$addr:$port" === $local, $method);
var_dump(str_starts_with($s['SERVER_SOFTWARE'], 'Rapier/'));
var_dump(is_int($s['REQUEST_TIME']) && abs($s['REQUEST_TIME'] - time()) < 5, is_float($s['REQUEST_TIME_FLOAT']));
var_dump(isset($s['HTTP_CONTENT_TYPE']), isset($s['HTTP_CONTENT_LENGTH']));
http_report_stop($srv);
?>
--EXPECT--
REQUEST_METHOD = 'POST'
REQUEST_URI = '/a%2Fb/c?x=1&y=2'
PATH_INFO = '/a/b/c'
QUERY_STRING = 'x=1&y=2'
SERVER_PROTOCOL = 'HTTP/1.1'
HTTP_HOST = 'example.test:8080'
HTTP_USER_AGENT = 't/1'
CONTENT_TYPE = 'application/x-www-form-urlencoded'
CONTENT_LENGTH = '3'
HTTP_X_FORWARDED_FOR = '10.0.0.1'
HTTP_CONNECTION = 'close'
REMOTE_ADDR = '127.0.0.1'
bool(true)
bool(true)
bool(true)
string(4) "POST"
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
exit: 0
