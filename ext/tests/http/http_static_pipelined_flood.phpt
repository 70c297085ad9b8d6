--TEST--
HTTP: thousands of pipelined static-file requests in one write are all answered in order, the last closing the connection, without the server's stack growing with them
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->end("handler"); }', ['document_root' => "$root/pub"]);
// Each answer used to be written from inside the previous one's: 3,000 deep
// overflowed the stack. Under valgrind fewer, which went just as deep.
$n = http_test_valgrind() ? 600 : 3000;
$get = "GET /digits.txt HTTP/1.1\r\nHost: x\r\n\r\n";
$c = new HttpTestConn($srv->port);
$c->send(str_repeat($get, $n - 1) . "GET /data.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$ok = 0;
for ($i = 1; $i < $n; $i++) {
    $r = $c->response(10);
    if ($r === null || $r['status'] != 200 || $r['body'] !== '0123456789abcdefghij') {
        echo "response $i: ", $r === null ? 'none' : "{$r['status']} {$r['body']}", "\n";
        break;
    }
    $ok++;
}
$last = $c->response(10);
echo $ok === $n - 1 ? "all digits answers\n" : "only $ok digits answers\n";
echo 'last: ', $last['status'] ?? 'none', ' ', trim($last['body'] ?? ''), ' ', $last['headers']['connection'][0] ?? '', "\n";
var_dump($c->closedWithin(3));
echo 'after: ', http_get($srv->port, '/style.css')['body'];
http_report_stop($srv);
?>
--EXPECT--
all digits answers
last: 200 {"a":1} close
bool(true)
after: body{color:red}
exit: 0
