--TEST--
HTTP: Response::statusCode() reads back the status: 200 at first, then what status(), json() or redirect() set
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $seen = [$res->statusCode()];
    if ($req->path === "/redirect") {
        $res->redirect("/x", 301);
        echo "after redirect: ", $res->statusCode(), "\n";
        return;
    }
    $res->status(404);
    $seen[] = $res->statusCode();
    $res->json($seen, 201);
    echo "after json: ", $res->statusCode(), "\n";
}');
$r = http_get($srv->port, '/');
echo $r['status'], ' ', $r['body'], "\n";
echo http_get($srv->port, '/redirect')['status'], "\n";
$srv->waitFor("after redirect", 2);
echo $srv->output();
http_report_stop($srv);
?>
--EXPECTF--
201 [200,404]
301
%Aafter json: 201
after redirect: 301
exit: 0
