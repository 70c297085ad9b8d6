--TEST--
HTTP: Response::sendfile() of a missing file throws; uncaught, the client gets 500 and the server carries on
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/caught") {
        try {
            $res->sendfile("/nonexistent/file.txt");
        } catch (Rapier\Exception $e) {
            $res->status(404)->end($e->getMessage());
        }
        return;
    }
    if ($req->path === "/dir") {
        $res->sendfile("/tmp");
    }
    $res->sendfile("/nonexistent/file.txt");
}');
$r = http_get($srv->port, '/caught');
echo $r['status'], ' ', $r['body'], "\n";
$r = http_get($srv->port, '/uncaught');
echo $r['status'], ' ', $r['body'];
$r = http_get($srv->port, '/dir');
echo $r['status'], ' ', $r['body'];
$r = $srv->stop();
echo "exit: {$r['code']}\n";
preg_match_all('~^Rapier\\\\Exception: (.*) in /~m', $r['err'], $m);
echo implode("\n", $m[1]), "\n";
?>
--EXPECT--
404 Cannot send file /nonexistent/file.txt: No such file or directory
500 500 Internal Server Error
500 500 Internal Server Error
exit: 0
Cannot send file /nonexistent/file.txt: No such file or directory
Cannot send file /tmp: not a regular file
