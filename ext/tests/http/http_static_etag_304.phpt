--TEST--
HTTP: static files answer 304 to a matching If-None-Match or If-Modified-Since, 200 otherwise
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->status(299)->end("handler"); }', ['document_root' => "$root/pub"]);
$r = http_get($srv->port, '/style.css');
$etag = $r['headers']['etag'][0];
$lm = $r['headers']['last-modified'][0];
$cases = [
    "If-None-Match: $etag",
    "If-None-Match: \"other\", $etag",
    "If-None-Match: W/$etag",
    "If-None-Match: *",
    "If-None-Match: \"other\"",
    "If-Modified-Since: $lm",
    "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT",
    "If-Modified-Since: not a date",
];
$c = new HttpTestConn($srv->port);
foreach ($cases as $h) {
    $c->send("GET /style.css HTTP/1.1\r\nHost: x\r\n$h\r\n\r\n");
    $r = $c->response();
    $label = str_replace([$etag, $lm], ['ETAG', 'LAST-MODIFIED'], $h);
    echo "$label: {$r['status']} ", $r['body'] === '' ? '(no body)' : 'body',
        $r['status'] == 304 ? (($r['headers']['etag'][0] ?? '') === $etag ? ' with ETag' : ' without ETag') : '', "\n";
}
/* After a 304 (no body) the keep-alive connection is still in step. */
$c->send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
echo $c->response()['body'], "\n";
/* If-None-Match wins over If-Modified-Since. */
$r = http_get($srv->port, '/style.css', ['If-None-Match: "other"', "If-Modified-Since: $lm"]);
echo $r['status'], "\n";
/* Touching the file changes the ETag. */
touch("$root/pub/style.css", time() - 100);
clearstatcache();
$r = http_get($srv->port, '/style.css', ["If-None-Match: $etag"]);
echo "after touch: {$r['status']} ", $r['headers']['etag'][0] !== $etag ? 'new ETag' : 'same ETag', "\n";
http_report_stop($srv);
http_static_remove($root);
?>
--EXPECT--
If-None-Match: ETAG: 304 (no body) with ETag
If-None-Match: "other", ETAG: 304 (no body) with ETag
If-None-Match: W/ETAG: 304 (no body) with ETag
If-None-Match: *: 304 (no body) with ETag
If-None-Match: "other": 200 body
If-Modified-Since: LAST-MODIFIED: 304 (no body) with ETag
If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT: 200 body
If-Modified-Since: not a date: 200 body
0123456789abcdefghij
200
after touch: 200 new ETag
exit: 0
