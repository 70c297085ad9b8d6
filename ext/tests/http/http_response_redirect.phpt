--TEST--
HTTP: Response::redirect() answers 302 (or the given 3xx) with Location and no body; one that throws leaves the response as it was
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/old") {
        $res->redirect("/new?x=1");
    } elseif ($req->path === "/moved") {
        $res->redirect("https://example.test/", 301);
    } elseif ($req->path === "/bad") {
        try {
            $res->redirect("/x", 200);
        } catch (ValueError $e) {
            $res->end($e->getMessage());
        }
    } elseif ($req->path === "/bad-location") {
        try {
            $res->redirect("/x\r\nX-Evil: 1", 301);
        } catch (ValueError $e) {
            $res->end($e->getMessage());
        }
    } else {
        $res->end("new page " . $req->uri);
    }
}');
$r = http_get($srv->port, '/old');
echo $r['status'], ' ', $r['headers']['location'][0], ' ', $r['headers']['content-length'][0], "\n";
$r = http_get($srv->port, '/moved');
echo $r['status'], ' ', $r['reason'], ' ', $r['headers']['location'][0], "\n";
echo http_get($srv->port, '/bad')['body'], "\n";
$r = http_get($srv->port, '/bad-location');
echo $r['status'], ' ', isset($r['headers']['location']) ? 'Location' : 'no Location', ' ',
    isset($r['headers']['x-evil']) ? 'X-Evil' : 'no X-Evil', ' ', $r['body'], "\n";
[$code, $out] = http_curl(['-L', "http://127.0.0.1:{$srv->port}/old"]);
echo $out, "\n";
http_report_stop($srv);
?>
--EXPECT--
302 /new?x=1 0
301 Moved Permanently https://example.test/
Rapier\Http\Response::redirect(): Argument #2 ($status) must be a redirection status (300 to 399)
200 no Location no X-Evil Rapier\Http\Response::redirect(): Argument #1 ($location) must not contain CR, LF, NUL or other control characters
new page /new?x=1
exit: 0
