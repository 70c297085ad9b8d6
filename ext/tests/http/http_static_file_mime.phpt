--TEST--
HTTP: static files from document_root are served with their MIME type, length, ETag and Last-Modified
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->status(299)->end("handler: " . $req->path); }',
    ['document_root' => "$root/pub"]);
foreach (['/style.css', '/data.json', '/page.html', '/pixel.png', '/script.js', '/blob.unknownext', '/sub/file.txt', '/style.css?v=2'] as $p) {
    $r = http_get($srv->port, $p);
    $file = "$root/pub" . explode('?', $p)[0];
    echo "$p: {$r['status']} {$r['headers']['content-type'][0]} ", $r['body'] === file_get_contents($file) ? 'same' : 'differs',
        ' ', $r['headers']['content-length'][0] == filesize($file) ? 'length ok' : 'bad length', "\n";
}
$r = http_get($srv->port, '/digits.txt');
$mtime = filemtime("$root/pub/digits.txt");
echo $r['headers']['last-modified'][0] === gmdate('D, d M Y H:i:s \G\M\T', $mtime) ? "Last-Modified ok" : "Last-Modified wrong", "\n";
echo preg_match('~^"[^"]+"$~', $r['headers']['etag'][0]) ? "strong ETag" : "bad ETag {$r['headers']['etag'][0]}", "\n";
echo $r['headers']['accept-ranges'][0], "\n";
/* HEAD: the same head, no body; the connection stays usable. */
$c = new HttpTestConn($srv->port);
$c->send("HEAD /digits.txt HTTP/1.1\r\nHost: x\r\n\r\n");
$h = $c->response(3, true);
echo "HEAD: {$h['status']} {$h['headers']['content-length'][0]} ", $h['headers']['etag'] === $r['headers']['etag'] ? 'same ETag' : 'other ETag', "\n";
$c->send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
echo "then GET: ", $c->response()['body'], "\n";
/* Methods other than GET and HEAD go to the application. */
$r = http_request($srv->port, "POST /digits.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
echo "POST: {$r['status']} {$r['body']}\n";
[$code, $out] = http_curl(["http://127.0.0.1:{$srv->port}/sub/file.txt"]);
echo "curl: $code $out";
http_report_stop($srv);
http_static_remove($root);
?>
--EXPECT--
/style.css: 200 text/css; charset=utf-8 same length ok
/data.json: 200 application/json same length ok
/page.html: 200 text/html; charset=utf-8 same length ok
/pixel.png: 200 image/png same length ok
/script.js: 200 text/javascript; charset=utf-8 same length ok
/blob.unknownext: 200 application/octet-stream same length ok
/sub/file.txt: 200 text/plain; charset=utf-8 same length ok
/style.css?v=2: 200 text/css; charset=utf-8 same length ok
Last-Modified ok
strong ETag
bytes
HEAD: 200 20 same ETag
then GET: 0123456789abcdefghij
POST: 299 handler: /digits.txt
curl: 0 in sub
exit: 0
