--TEST--
HTTP: an unsatisfiable Range for a static file gets 416 with Content-Range bytes */size
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
file_put_contents("$root/pub/empty.txt", '');
$srv = http_server_start('function ($req, $res) { $res->status(299)->end("handler"); }', ['document_root' => "$root/pub"]);
$c = new HttpTestConn($srv->port);
foreach ([['digits.txt', 'bytes=20-'], ['digits.txt', 'bytes=100-200'], ['digits.txt', 'bytes=-0'], ['empty.txt', 'bytes=0-']] as [$f, $range]) {
    $c->send("GET /$f HTTP/1.1\r\nHost: x\r\nRange: $range\r\n\r\n");
    $r = $c->response();
    echo "$f $range: {$r['status']} {$r['headers']['content-range'][0]} {$r['headers']['content-length'][0]} [{$r['body']}]\n";
}
$c->send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
echo "then: ", $c->response()['body'], "\n";
http_report_stop($srv);
http_static_remove($root);
?>
--EXPECT--
digits.txt bytes=20-: 416 bytes */20 0 []
digits.txt bytes=100-200: 416 bytes */20 0 []
digits.txt bytes=-0: 416 bytes */20 0 []
empty.txt bytes=0-: 416 bytes */0 0 []
then: 0123456789abcdefghij
exit: 0
