--TEST--
HTTP: header(), setcookie(), header_remove(), headers_list() and http_response_code() work in a worker
--EXTENSIONS--
rapier
--FILE--
<?php
// Outside a server, the CLI drops headers as stock PHP does.
header("X-Outside: 1");
$outside = headers_list();
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    echo "";
    header("X-One: 1");
    header("X-Two: 2");
    header("X-One: 3");
    header("X-Many: a", false);
    header("X-Many: b", false);
    setcookie("c", "v w");
    header_remove("X-Two");
    http_response_code(201);
    $seen = ["list" => headers_list(), "code" => http_response_code(), "sent" => headers_sent()];
    header_remove();
    http_response_code(200);
    $seen["after"] = headers_list();
    $res->json($seen);
}');
echo http_get($srv->port, '/')['body'], "\n";
http_report_stop($srv);
var_dump($outside);
?>
--EXPECT--
{"list":["X-One: 3","X-Many: a","X-Many: b","Set-Cookie: c=v%20w"],"code":201,"sent":false,"after":[]}
exit: 0
array(0) {
}
