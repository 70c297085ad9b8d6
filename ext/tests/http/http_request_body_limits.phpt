--TEST--
HTTP: a handler reading its body while it arrives sets its own limits for it (Request::setMaxBodySize(), setBodyTimeout()), raised, lowered or lifted, on HTTP/1.1 and HTTP/2; the next request has the server's again, and a whole body is not affected
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/../http2/h2.inc';
$srv = http_server_start('function ($req, $res) {
    $limit = fn(string $v) => $v === "none" ? null : (float) $v;
    try {
        if (isset($req->query["max"])) {
            $max = $limit($req->query["max"]);
            $req->setMaxBodySize($max === null ? null : (int) $max);
        }
        if (isset($req->query["timeout"])) {
            $req->setBodyTimeout($limit($req->query["timeout"]));
        }
        $in = $req->bodyStream();
        $size = 0;
        $ctx = hash_init("md5");
        while (($piece = fread($in, 65536)) !== "") {
            $size += strlen($piece);
            hash_update($ctx, $piece);
        }
        $res->end(hash_final($ctx) . " $size\n");
    } catch (Rapier\Http\BodyException $e) {
        $res->end($e->getCode() . ": " . $e->getMessage() . "\n");
    } catch (ValueError $e) {
        $res->end("ValueError: " . $e->getMessage() . "\n");
    }
}', ['http2' => true, 'request_buffering' => false, 'max_body_size' => 1024, 'body_timeout' => 0.3]);
$port = $srv->port;
$head = fn(string $method, string $path, array $headers) => "$method $path HTTP/1.1\r\nHost: x\r\n" . implode('', array_map(fn($h) => "$h\r\n", $headers)) . "\r\n";
$chunk = fn(string $data) => dechex(strlen($data)) . "\r\n$data\r\n";
$body = random_bytes(65536);
$sum = fn(string $data) => md5($data) . ' ' . strlen($data);
$check = fn(string $got, string $data) => trim($got) === $sum($data) ? 'the whole body' : trim($got);
/* A pause well past body_timeout (0.3 s, not stretched under valgrind: the server's own clock), however late the handler starts to wait. */
$pause = fn() => usleep(1500000);

echo "-- HTTP/1.1\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/?max=none', ['Transfer-Encoding: chunked']));
foreach (str_split($body, 16384) as $piece) {
    $c->send($chunk($piece));
}
$c->send("0\r\n\r\n");
echo "lifted, 64 KiB past the server's 1 KiB: ", $check($c->response()['body'], $body), "\n";
$c->send($head('PUT', '/', ['Transfer-Encoding: chunked']) . $chunk(substr($body, 0, 2000)) . "0\r\n\r\n");
echo "the next request on the connection: ", trim($c->response()['body']), "\n";
$c->close();
$r = http_request($port, $head('PUT', '/?max=4000', ['Transfer-Encoding: chunked', 'Connection: close']) . $chunk(substr($body, 0, 3000)) . $chunk(substr($body, 0, 3000)) . "0\r\n\r\n");
echo "raised to 4000, 6000 sent: ", trim($r['body']), "\n";
$r = http_request($port, $head('PUT', '/?max=10', ['Content-Length: 50', 'Connection: close']) . str_repeat('x', 50));
echo "lowered below a Content-Length that came whole with the head: ", trim($r['body']), "\n";
$c = new HttpTestConn($port);
$c->send($head('PUT', '/?max=10', ['Content-Length: 50', 'Expect: 100-continue']));
$r = $c->response();
echo "with Expect: 100-continue: {$r['status']} ", trim($r['body']), ", closed: ", var_export($c->closedWithin(3), true), "\n";
$c->close();

$c = new HttpTestConn($port);
$c->send($head('PUT', '/?timeout=none', ['Transfer-Encoding: chunked', 'Connection: close']) . $chunk('first '));
$pause();
$c->send($chunk('second') . "0\r\n\r\n");
echo "no timeout, a pause past body_timeout: ", $check($c->response()['body'], 'first second'), "\n";
$c->close();
$c = new HttpTestConn($port);
$c->send($head('PUT', '/?timeout=60', ['Transfer-Encoding: chunked', 'Connection: close']) . $chunk('first '));
$pause();
$c->send($chunk('second') . "0\r\n\r\n");
echo "raised to 60 s: ", $check($c->response()['body'], 'first second'), "\n";
$c->close();
$c = new HttpTestConn($port);
$c->send($head('PUT', '/', ['Transfer-Encoding: chunked', 'Connection: close']) . $chunk('first '));
$pause();
$c->send($chunk('second') . "0\r\n\r\n");
echo "the server's: ", trim((string) $c->response()['body']), "\n";
$c->close();

echo "-- misuse, and a whole body (GET bodies are buffered)\n";
foreach (['max=-1', 'timeout=0', 'timeout=-2', 'timeout=1e12'] as $q) {
    echo "$q: ", trim(http_request($port, $head('PUT', "/?$q", ['Content-Length: 3', 'Connection: close']) . 'abc')['body']), "\n";
}
echo "whole, max=0: ", $check(http_request($port, $head('GET', '/?max=0', ['Content-Length: 3', 'Connection: close']) . 'abc')['body'], 'abc'), "\n";

echo "-- HTTP/2\n";
$c = new H2TestConn($port);
$c->request(1, 'PUT', '/?max=none', [], false);
$c->data(1, $body);
echo "lifted: ", $check(h2_body($c->stream(1)), $body), "\n";
$c->request(3, 'PUT', '/', [], false);
$c->data(3, substr($body, 0, 2000));
echo "the next stream: ", trim(h2_body($c->stream(3))), "\n";
$c->request(5, 'PUT', '/?max=100', [], false);
$c->data(5, substr($body, 0, 500));
echo "lowered to 100: ", trim(h2_body($c->stream(5))), "\n";
$c->request(7, 'PUT', '/?timeout=none', [], false);
$c->data(7, 'first ', false);
$pause();
$c->data(7, 'second');
echo "no timeout, a pause: ", $check(h2_body($c->stream(7)), 'first second'), "\n";
$c->request(9, 'PUT', '/', [], false);
$c->data(9, 'first ', false);
$pause();
echo "the server's: ", trim(h2_body($c->stream(9))), "\n";
$c->close();
$r = $srv->stop();
echo "exit: {$r['code']}\n";
?>
--EXPECTF--
-- HTTP/1.1
lifted, 64 KiB past the server's 1 KiB: the whole body
the next request on the connection: 413: The request body cannot be read whole: the request body is larger than max_body_size
raised to 4000, 6000 sent: 413: The request body cannot be read whole: the request body is larger than the handler's limit
lowered below a Content-Length that came whole with the head: 413: The request body cannot be read whole: the request body is larger than the handler's limit
with Expect: 100-continue: 200 413: The request body cannot be read whole: the request body is larger than the handler's limit, closed: true
no timeout, a pause past body_timeout: the whole body
raised to 60 s: the whole body
the server's: 408: The request body cannot be read whole: no byte of the request body came in time
-- misuse, and a whole body (GET bodies are buffered)
max=-1: ValueError: Rapier\Http\Request::setMaxBodySize(): Argument #1 ($bytes) must be greater than or equal to 0, or null for no limit
timeout=0: ValueError: Rapier\Http\Request::setBodyTimeout(): Argument #1 ($seconds) must be greater than 0, or null for no limit
timeout=-2: ValueError: Rapier\Http\Request::setBodyTimeout(): Argument #1 ($seconds) must be greater than 0, or null for no limit
timeout=1e12: ValueError: Rapier\Http\Request::setBodyTimeout(): Argument #1 ($seconds) must be at most %s seconds
whole, max=0: the whole body
-- HTTP/2
lifted: the whole body
the next stream: 413: The request body cannot be read whole: the request body is larger than max_body_size
lowered to 100: 413: The request body cannot be read whole: the request body is larger than the handler's limit
no timeout, a pause: the whole body
the server's: 408: The request body cannot be read whole: no byte of the request body came in time
exit: 0
