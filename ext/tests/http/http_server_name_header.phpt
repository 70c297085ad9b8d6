--TEST--
HTTP: no Server header by default; the server_name option sets one, and the application's own Server header wins
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$handler = 'function ($req, $res) {
    if ($req->path === "/own") {
        $res->header("Server", "app/1.0");
    }
    $res->end("ok");
}';
$srv = http_server_start($handler);
var_dump(http_get($srv->port, '/')['headers']['server'] ?? null);
http_report_stop($srv);
$srv = http_server_start($handler, ['server_name' => 'rapier-test']);
echo json_encode(http_get($srv->port, '/')['headers']['server']), "\n";
echo json_encode(http_get($srv->port, '/own')['headers']['server']), "\n";
http_report_stop($srv);
?>
--EXPECT--
NULL
exit: 0
["rapier-test"]
["app\/1.0"]
exit: 0
