--TEST--
HTTP: Request::bufferBody() takes a body still arriving whole and keeps it as a buffered one: in memory up to body_buffer_size, past it in a temporary file (bodyFile(), removed with the request, renamed by saveBody()), with every body method as with request_buffering on; a client that leaves mid-body gets no file left behind
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$tmp = sys_get_temp_dir() . '/rapier-buffer-body-' . getmypid();
@mkdir($tmp);
$saved = "$tmp/saved.bin";
$srv = http_server_start('function ($req, $res) {
    memory_reset_peak_usage();
    $before = memory_get_usage();
    try {
        if ($req->path === "/partial") {
            fread($req->bodyStream(), 10);
        }
        if ($req->path === "/state") {
            $res->end(($GLOBALS["state"] ?? "nothing") . "\n");
            return;
        }
        $req->bufferBody();
        $req->bufferBody();
        /* Before body(), which reads a spooled body into memory. */
        $low = memory_get_peak_usage() - $before < (1 << 20);
        $file = $req->bodyFile();
        $out = [
            "size" => $req->bodySize(),
            "file" => $file === null ? null : (dirname($file) === ini_get("upload_tmp_dir") && filesize($file) === $req->bodySize()),
            "md5" => md5_file("php://input"),
            "again" => md5(stream_get_contents($req->bodyStream())),
            "body" => md5($req->body()),
            "kept_under_1m" => $low,
        ];
        if ($req->path === "/save") {
            $req->saveBody(' . var_export($saved, true) . ');
            clearstatcache();
            $out["saved"] = $req->bodyFile() === ' . var_export($saved, true) . ' && !is_file($file) ? md5_file(' . var_export($saved, true) . ') : "not moved";
        }
        $res->json($out);
    } catch (Rapier\Exception $e) {
        $GLOBALS["state"] = get_class($e) . " " . $e->getCode() . ": " . $e->getMessage();
        $res->end($GLOBALS["state"] . "\n");
    }
}', ['request_buffering' => false, 'body_buffer_size' => 4096, 'max_body_size' => 8 << 20], '', '', ['upload_tmp_dir' => $tmp]);
$port = $srv->port;
$head = fn(string $path, array $headers) => "PUT $path HTTP/1.1\r\nHost: x\r\n" . implode('', array_map(fn($h) => "$h\r\n", $headers)) . "\r\n";
$chunk = fn(string $data) => dechex(strlen($data)) . "\r\n$data\r\n";
$files = fn() => count(glob("$tmp/rapier*"));
$show = function (string $data, ?array $r) {
    $j = json_decode($r['body'] ?? '', true);
    if (!is_array($j)) {
        return 'unexpected: ' . json_encode($r);
    }
    $sum = md5($data);
    return "size " . ($j['size'] === strlen($data) ? 'right' : $j['size']) . ", file " . json_encode($j['file'])
        . ", php://input " . ($j['md5'] === $sum ? 'whole' : 'differs') . ", bodyStream() again " . ($j['again'] === $sum ? 'whole' : 'differs')
        . ", body() " . ($j['body'] === $sum ? 'whole' : 'differs') . ", memory kept low: " . json_encode($j['kept_under_1m'])
        . (isset($j['saved']) ? ', saveBody(): ' . ($j['saved'] === $sum ? 'renamed' : $j['saved']) : '');
};

$small = random_bytes(3000);
echo "small, in memory: ", $show($small, http_request($port, $head('/', ['Content-Length: 3000', 'Connection: close']) . $small)), "\n";
$big = random_bytes(3 << 20);
$raw = $head('/', ['Transfer-Encoding: chunked', 'Connection: close']);
foreach (str_split($big, 100000) as $piece) {
    $raw .= $chunk($piece);
}
echo "3 MiB chunked, spooled: ", $show($big, http_request($port, $raw . "0\r\n\r\n", 20)), "\n";
echo "its file removed with the request: ", var_export(http_test_poll(fn() => $files() === 0, 5), true), "\n";
echo "saved: ", $show($big, http_request($port, $head('/save', ['Content-Length: ' . strlen($big), 'Connection: close']) . $big, 20)), "\n";
@unlink($saved);

echo "after a partial stream read: ", trim(http_request($port, $head('/partial', ['Content-Length: 20', 'Connection: close']) . str_repeat('p', 20))['body']), "\n";

$c = new HttpTestConn($port);
$c->send($head('/', ['Content-Length: 1000000']) . str_repeat('g', 200000));
/* Until its bytes are in the file: bufferBody() has spooled them. */
http_test_poll(fn() => array_sum(array_map('filesize', glob("$tmp/rapier*"))) >= 200000, 5);
$c->close();
$state = http_test_poll(fn() => ($st = trim(http_get($port, '/state')['body'])) !== 'nothing' ? $st : null, 5);
echo "client gone mid-body: $state; files left: ", http_test_poll(fn() => $files() === 0, 5) ? 0 : $files(), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
@rmdir($tmp);
?>
--EXPECT--
small, in memory: size right, file null, php://input whole, bodyStream() again whole, body() whole, memory kept low: true
3 MiB chunked, spooled: size right, file true, php://input whole, bodyStream() again whole, body() whole, memory kept low: true
its file removed with the request: true
saved: size right, file true, php://input whole, bodyStream() again whole, body() whole, memory kept low: true, saveBody(): renamed
after a partial stream read: Rapier\Exception 0: Part of the request body was read already (bodyStream(), php://input): the rest of it is only on that stream
client gone mid-body: Rapier\Http\BodyException 499: The request body cannot be read whole: the client closed the connection before the body ended; files left: 0
exit: 0
