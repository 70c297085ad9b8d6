--TEST--
HTTP: Request::header() looks names up case-insensitively; headers are lower-case, repeats joined
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->json([
        $req->header("X-Custom"), $req->header("x-custom"), $req->header("X-CUSTOM"),
        $req->header("accept"), $req->header("missing"), $req->headers,
    ]);
}');
$r = http_request($srv->port, "GET / HTTP/1.1\r\nHOST: example.test\r\nx-CuStOm:   padded value  \r\nAccept: a/b\r\nACCEPT: c/d\r\nConnection: close\r\n\r\n");
echo $r['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
["padded value","padded value","padded value","a\/b, c\/d",null,{"host":"example.test","x-custom":"padded value","accept":"a\/b, c\/d","connection":"close"}]
exit: 0
