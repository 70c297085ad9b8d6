--TEST--
HTTP: with document_root, a path that names no file (missing, directory, dotfile) goes to the request handler
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->status(299)->end("handler: " . $req->path); }', ['document_root' => "$root/pub"]);
foreach (['/', '/index.php', '/users/42', '/sub', '/sub/', '/.hidden', '/style.css/'] as $p) {
    $r = http_get($srv->port, $p);
    echo "$p: {$r['status']} {$r['body']}\n";
}
http_report_stop($srv);
http_static_remove($root);
?>
--EXPECT--
/: 299 handler: /
/index.php: 299 handler: /index.php
/users/42: 299 handler: /users/42
/sub: 299 handler: /sub
/sub/: 299 handler: /sub/
/.hidden: 299 handler: /.hidden
/style.css/: 299 handler: /style.css/
exit: 0
