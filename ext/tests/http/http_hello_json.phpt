--TEST--
HTTP: a JSON response carries Content-Type, Content-Length and Date
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->json(["time" => 1700000000, "str" => "hello"]); }');
$r = http_get($srv->port, '/');
echo $r['version'], ' ', $r['status'], ' ', $r['reason'], "\n";
echo $r['headers']['content-type'][0], "\n";
var_dump($r['headers']['content-length'][0] === (string) strlen($r['body']));
$date = DateTime::createFromFormat('D, d M Y H:i:s \G\M\T', $r['headers']['date'][0], new DateTimeZone('UTC'));
var_dump($date !== false && abs($date->getTimestamp() - time()) < 5);
echo $r['body'], "\n";
[$code, $out] = http_curl(['-i', "http://127.0.0.1:{$srv->port}/"]);
echo $code, "\n", substr($out, 0, strpos($out, "\r\n")), "\n", substr($out, strpos($out, "\r\n\r\n") + 4), "\n";
http_report_stop($srv);
?>
--EXPECT--
HTTP/1.1 200 OK
application/json
bool(true)
bool(true)
{"time":1700000000,"str":"hello"}
0
HTTP/1.1 200 OK
{"time":1700000000,"str":"hello"}
exit: 0
