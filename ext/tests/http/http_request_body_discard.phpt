--TEST--
HTTP: request_buffering off, a handler that answers without reading its body to the end keeps the connection when the rest is at most max_body_discard: the rest is parsed and dropped (never taken for a request), then the next request is served; past the bound, malformed, stalled or after Expect the connection closes as before
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_executable('/usr/bin/curl')) die('skip curl is needed');
--FILE--
<?php
require __DIR__ . '/tls.inc';
$handler = 'function ($req, $res) {
    static $served = 0, $evil = 0;
    $served++;
    switch ($req->path) {
        case "/ignore":
            $res->end("ignored\n");
            return;
        case "/peek":
            $res->end("peeked " . fread($req->bodyStream(), 10) . "\n");
            return;
        case "/evil":
            $evil++;
            $res->end("evil\n");
            return;
        default:
            $res->end("served $served, evil $evil\n");
    }
}';
$srv = http_server_start($handler, ['request_buffering' => false, 'max_body_discard' => 100000, 'body_timeout' => 0.5]);
$port = $srv->port;
$head = fn(string $method, string $path, array $headers) => "$method $path HTTP/1.1\r\nHost: x\r\n" . implode('', array_map(fn($h) => "$h\r\n", $headers)) . "\r\n";
$chunk = fn(string $data) => dechex(strlen($data)) . "\r\n$data\r\n";
$show = fn(?array $r) => $r === null ? 'no response' : $r['status'] . ' ' . trim($r['body']) . (isset($r['headers']['connection']) ? ' [Connection: ' . $r['headers']['connection'][0] . ']' : '');
/* A body made of requests: any of them taken for one would show in the count of /evil. */
$smuggled = fn(int $n) => substr(str_repeat("GET /evil HTTP/1.1\r\nHost: x\r\n\r\n", intdiv($n, 32) + 1), 0, $n);

echo "-- the rest, sent after the answer, is dropped; the next request is served\n";
$c = new HttpTestConn($port);
$body = $smuggled(99000);
$c->send($head('POST', '/ignore', ['Content-Length: ' . strlen($body)]) . substr($body, 0, 1000));
echo $show($c->response()), "\n";
$c->send(substr($body, 1000) . $head('GET', '/next', []));
echo $show($c->response(5)), "\n";

echo "-- pipelined in one write: body, then the next request\n";
$c->send($head('POST', '/ignore', ['Content-Length: ' . strlen($body)]) . $body . $head('GET', '/next', []));
echo $show($c->response(5)), "\n", $show($c->response(5)), "\n";

echo "-- chunked, the handler read 10 bytes of it; the rest comes in pieces\n";
$c->send($head('PUT', '/peek', ['Transfer-Encoding: chunked']) . $chunk('0123456789abcdef'));
echo $show($c->response()), "\n";
foreach (str_split($smuggled(60000), 20000) as $piece) {
    $c->send($chunk($piece));
    usleep(20000);
}
$c->send("0\r\n\r\n" . $head('GET', '/next', []));
echo $show($c->response(5)), "\n";
$c->close();

echo "-- a known rest past max_body_discard: Connection: close, as an unread body always did\n";
$c = new HttpTestConn($port);
$c->send($head('POST', '/ignore', ['Content-Length: 300000']) . str_repeat('x', 1000));
echo $show($c->response()), ", closed: ", var_export($c->closedWithin(5), true), "\n";

echo "-- a chunked rest that grows past it: dropped up to the bound, then the connection closes\n";
$c = new HttpTestConn($port);
$c->send($head('POST', '/ignore', ['Transfer-Encoding: chunked']) . $chunk('x'));
echo $show($c->response()), "\n";
$c->send($chunk(str_repeat('y', 150000)) . "0\r\n\r\n" . $head('GET', '/evil', []));
echo "then: ", json_encode($c->readAll(5)), ", closed: ", var_export($c->eof, true), "\n";

echo "-- a malformed rest closes the connection; nothing after it is served\n";
$c = new HttpTestConn($port);
$c->send($head('POST', '/ignore', ['Transfer-Encoding: chunked']) . $chunk('x'));
echo $show($c->response()), "\n";
$c->send("zz\r\nnot a chunk\r\n" . $head('GET', '/evil', []));
echo "then: ", json_encode($c->readAll(5)), ", closed: ", var_export($c->eof, true), "\n";

echo "-- a rest that stalls: closed after body_timeout, with no second answer\n";
$c = new HttpTestConn($port);
$c->send($head('POST', '/ignore', ['Content-Length: 5000']) . 'abc');
echo $show($c->response()), "\n";
$t = microtime(true);
echo "then: ", json_encode($c->readAll(5)), ", closed: ", var_export($c->eof, true), ", not before body_timeout: ",
    var_export(microtime(true) - $t >= 0.4, true), "\n";

echo "-- Expect: 100-continue never answered: the client sends no body, so the connection closes\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/ignore', ['Content-Length: 10', 'Expect: 100-continue']));
echo $show($c->response()), ", closed: ", var_export($c->closedWithin(3), true), "\n";

echo "-- curl: two uploads the handler ignores, one connection\n";
$file = tempnam(sys_get_temp_dir(), 'rapier-discard');
file_put_contents($file, $smuggled(90000));
[$rc, $out, $err] = http_curl(['-o', '/dev/null', '-o', '/dev/null', '-w', '%{http_code} %{num_connects}\n',
    '--data-binary', "@$file", "http://127.0.0.1:$port/ignore", "http://127.0.0.1:$port/ignore"], 10);
unlink($file);
echo trim($out), $rc === 0 ? '' : " (curl $rc: $err)", "\n";

echo "-- the worker serves on, and no smuggled request ran\n";
echo $show(http_get($port, '/count')), "\n";
http_report_stop($srv);

echo "-- max_body_discard 0: every unread rest closes the connection\n";
$srv = http_server_start($handler, ['request_buffering' => false, 'max_body_discard' => 0]);
$c = new HttpTestConn($srv->port);
$c->send($head('POST', '/ignore', ['Content-Length: 2000']) . str_repeat('x', 100));
echo $show($c->response()), ", closed: ", var_export($c->closedWithin(5), true), "\n";
http_report_stop($srv);

echo "-- HTTPS: the rest is read through the session, records already taken included\n";
$srv = http_server_start($handler, tls_test_options(['request_buffering' => false]));
$c = new HttpTestConn($srv->port, tls_test_files()['cert']);
$c->send($head('POST', '/ignore', ['Content-Length: ' . strlen($body)]) . substr($body, 0, 1000));
echo $show($c->response()), "\n";
$c->send(substr($body, 1000) . $head('GET', '/next', []));
echo $show($c->response(5)), "\n";
$c->send($head('POST', '/ignore', ['Content-Length: ' . strlen($body)]) . $body . $head('GET', '/next', []));
echo $show($c->response(5)), "\n", $show($c->response(5)), "\n";
$c->close();
http_report_stop($srv);
?>
--EXPECTF--
-- the rest, sent after the answer, is dropped; the next request is served
200 ignored
200 served 2, evil 0
-- pipelined in one write: body, then the next request
200 ignored
200 served 4, evil 0
-- chunked, the handler read 10 bytes of it; the rest comes in pieces
200 peeked 0123456789
200 served 6, evil 0
-- a known rest past max_body_discard: Connection: close, as an unread body always did
200 ignored [Connection: close], closed: true
-- a chunked rest that grows past it: dropped up to the bound, then the connection closes
200 ignored
then: "", closed: true
-- a malformed rest closes the connection; nothing after it is served
200 ignored
then: "", closed: true
-- a rest that stalls: closed after body_timeout, with no second answer
200 ignored
then: "", closed: true, not before body_timeout: true
-- Expect: 100-continue never answered: the client sends no body, so the connection closes
200 ignored [Connection: close], closed: true
-- curl: two uploads the handler ignores, one connection
200 1
200 0
-- the worker serves on, and no smuggled request ran
200 served 14, evil 0 [Connection: close]
exit: 0
-- max_body_discard 0: every unread rest closes the connection
200 ignored [Connection: close], closed: true
exit: 0
-- HTTPS: the rest is read through the session, records already taken included
200 ignored
200 served 2, evil 0
200 ignored
200 served 4, evil 0
exit: 0
