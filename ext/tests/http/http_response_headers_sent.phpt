--TEST--
HTTP: Response::headersSent() is false until the head goes out (first write() or the end), true after, also once stale
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    static $kept = null;
    $seen = [$res->headersSent()];
    $res->header("X-A", "1");
    $seen[] = $res->headersSent();
    if ($req->path === "/stream") {
        $res->write("part");
        $seen[] = $res->headersSent();
    } elseif ($req->path === "/stale") {
        $res->end("stale " . json_encode($kept?->headersSent()));
        return;
    }
    $res->end(json_encode($seen) . ";");
    $seen[] = $res->headersSent();
    echo json_encode($seen), "\n";
    $kept = $res;
}');
echo http_get($srv->port, '/')['body'], "\n";
echo http_get($srv->port, '/stream')['body'], "\n";
echo http_get($srv->port, '/stale')['body'], "\n";
$r = $srv->stop();
echo $r['out'], "exit: ", $r['code'], "\n";
?>
--EXPECT--
[false,false];
part[false,false,true];
stale true
ready
[false,false,true]
[false,false,true,true]
start() returned
exit: 0
