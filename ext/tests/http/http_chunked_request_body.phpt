--TEST--
HTTP: chunked request bodies with chunk sizes 1, 2, 7 and 4096 are decoded whole
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->end(strlen($req->body()) . " " . md5($req->body()) . " " . ($req->header("content-length") ?? "no-length"));
}');
$body = '';
for ($i = 0; $i < 10000; $i++) {
    $body .= chr(32 + $i % 95);
}
$c = new HttpTestConn($srv->port);
foreach ([1, 2, 7, 4096] as $size) {
    $wire = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    foreach (str_split($body, $size) as $i => $chunk) {
        /* Chunk extensions and upper-case hex are allowed too. */
        $wire .= ($i % 3 ? dechex(strlen($chunk)) : strtoupper(dechex(strlen($chunk))) . ";ext=1") . "\r\n$chunk\r\n";
    }
    $wire .= "0\r\nX-Trailer: t\r\n\r\n";
    /* Delivered in uneven pieces so that sizes, data and CRLFs straddle reads. */
    foreach (str_split($wire, 1021) as $piece) {
        $c->send($piece);
    }
    $r = $c->response();
    echo "chunks of $size: ", $r['status'], ' ', $r['body'] === strlen($body) . ' ' . md5($body) . ' no-length' ? 'ok' : $r['body'], "\n";
}
http_report_stop($srv);
?>
--EXPECT--
chunks of 1: 200 ok
chunks of 2: 200 ok
chunks of 7: 200 ok
chunks of 4096: 200 ok
exit: 0
