--TEST--
HTTP: Response::header() is repeatable (two Set-Cookie lines) and keeps names and order as set
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $res->header("Set-Cookie", "a=1; Path=/")
        ->header("X-Multi", "one")
        ->header("Set-Cookie", "b=2; HttpOnly")
        ->header("X-Multi", "two")
        ->header("x-lower-case", "kept");
    $res->end("ok");
}');
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$r = $c->response();
foreach ($r['lines'] as $line) {
    if (preg_match('~^(Set-Cookie|X-Multi|x-lower-case):~i', $line)) {
        echo $line, "\n";
    }
}
[$code, $out] = http_curl(['-c', '-', "http://127.0.0.1:{$srv->port}/"]);
/* curl's cookie jar received both cookies. */
preg_match_all('~\t(a|b)\t(\d)$~m', $out, $m, PREG_SET_ORDER);
$jar = array_map(fn($x) => "$x[1]=$x[2]", $m);
sort($jar);
echo implode(' ', $jar), "\n";
http_report_stop($srv);
?>
--EXPECT--
Set-Cookie: a=1; Path=/
X-Multi: one
Set-Cookie: b=2; HttpOnly
X-Multi: two
x-lower-case: kept
a=1 b=2
exit: 0
