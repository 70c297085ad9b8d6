--TEST--
HTTP: path traversal out of document_root is refused with 400 (never the file, never the handler); symlinks out are not followed
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->status(299)->end("handler: " . $req->path); }', ['document_root' => "$root/pub"]);
foreach (['/../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/secret.txt', '/sub/../../secret.txt', '/sub/..%2f..%2fsecret.txt',
    '/sub/%2e%2e/%2e%2e/secret.txt', '/..'] as $p) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET $p HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    $raw = $c->readAll(3);
    echo "$p: ", substr($raw, 0, strpos($raw, "\r\n")), str_contains($raw, 'SECRET') ? ' LEAKED' : '', str_contains($raw, 'handler') ? ' (handler)' : '', "\n";
}
/* Inside the root, ".." that stays inside is fine. */
echo "/sub/../style.css: ", http_get($srv->port, '/sub/../style.css')['body'];
/* A symlink placed in the root that points outside is not followed: the handler gets the path. */
$r = http_get($srv->port, '/link-out');
echo "/link-out: {$r['status']} ", str_contains($r['body'], 'SECRET') ? 'LEAKED' : $r['body'], "\n";
http_report_stop($srv);
http_static_remove($root);
?>
--EXPECT--
/../secret.txt: HTTP/1.1 400 Bad Request
/%2e%2e/secret.txt: HTTP/1.1 400 Bad Request
/%2E%2E/secret.txt: HTTP/1.1 400 Bad Request
/sub/../../secret.txt: HTTP/1.1 400 Bad Request
/sub/..%2f..%2fsecret.txt: HTTP/1.1 400 Bad Request
/sub/%2e%2e/%2e%2e/secret.txt: HTTP/1.1 400 Bad Request
/..: HTTP/1.1 400 Bad Request
/sub/../style.css: body{color:red}
/link-out: 299 handler: /link-out
exit: 0
