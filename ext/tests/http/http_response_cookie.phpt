--TEST--
HTTP: Response::cookie() formats Set-Cookie as setcookie() does
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->cookie("plain", "v");
    $res->cookie("enc", "a b;c=d");
    $res->cookie("full", "x", 2000000000, "/app", "example.test", true, true, "Strict");
    $res->cookie("gone");
    try {
        $res->cookie("bad name", "v");
    } catch (ValueError $e) {
        $res->header("X-Error", $e->getMessage());
    }
    $res->end("ok");
}');
$r = http_get($srv->port, '/');
foreach ($r['headers']['set-cookie'] as $line) {
    echo preg_replace('~Max-Age=[1-9]\d*~', 'Max-Age=N', $line), "\n";
}
echo $r['headers']['x-error'][0], "\n";
http_report_stop($srv);
?>
--EXPECT--
plain=v
enc=a%20b%3Bc%3Dd
full=x; expires=Wed, 18 May 2033 03:33:20 GMT; Max-Age=N; path=/app; domain=example.test; secure; HttpOnly; SameSite=Strict
gone=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0
Rapier\Http\Response::cookie(): Argument #1 ($name) must not be empty or contain "=", ",", ";", " ", "\t", "\r", "\n", "\013", or "\014"
exit: 0
