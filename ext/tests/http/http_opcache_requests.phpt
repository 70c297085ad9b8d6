--TEST--
HTTP: the server runs under opcache (opcache.enable_cli): requests of every known method are answered and the worker survives them
--EXTENSIONS--
rapier
--SKIPIF--
<?php
$dir = ini_get('extension_dir');
if (!is_file("$dir/opcache.so")) die("skip opcache.so not in $dir");
require __DIR__ . '/../skipif.inc';
if (rapier_test_under_valgrind()) die('skip opcache keeps its shared memory to the end: valgrind reports it');
?>
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->json(["method" => $req->method, "opcache" => function_exists("opcache_get_status") && opcache_get_status(false) !== false]);
}', [], '', '', ['zend_extension' => ini_get('extension_dir') . '/opcache.so', 'opcache.enable_cli' => '1']);
$seen = [];
foreach (['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'GET', 'POST'] as $method) {
    $c = new HttpTestConn($srv->port);
    $c->send("$method / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
    $r = $c->response();
    $j = json_decode($r['body'] ?? 'null', true);
    $seen[] = ($j['method'] ?? 'none') . ($j['opcache'] ?? false ? '' : ' (no opcache)');
    $c->close();
}
echo implode(' ', $seen), "\n";
http_report_stop($srv);
?>
--EXPECT--
GET POST PUT DELETE PATCH OPTIONS GET POST
exit: 0
