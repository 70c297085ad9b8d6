--TEST--
HTTP: Cookie headers fill Request::$cookies as PHP fills $_COOKIE
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end(json_encode($req->cookies)); }');
$r = http_get($srv->port, '/', ['Cookie: a=1; b=hello%20world;  c = spaced ; a=second; arr[x]=1; arr[y]=2', 'Cookie: d=from-second-header']);
echo $r['body'], "\n";
$r = http_get($srv->port, '/');
echo $r['body'], "\n";
[$code, $out] = http_curl(['-b', 'session=abc123; theme=dark', "http://127.0.0.1:{$srv->port}/"]);
echo $out, "\n";
http_report_stop($srv);
?>
--EXPECT--
{"a":"1","b":"hello world","c":"spaced","arr":{"x":"1","y":"2"},"d":"from-second-header"}
[]
{"session":"abc123","theme":"dark"}
exit: 0
