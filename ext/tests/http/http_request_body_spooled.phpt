--TEST--
HTTP: a body past body_buffer_size (or chunked and growing past it) is written to a temporary file while it arrives; bodyStream(), bodySize(), body() and saveBody() read or keep it; refused, abandoned and finished requests leave no file behind
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/* Under valgrind every byte costs: a smaller upload, still far past the bound. */
$mib = http_test_valgrind() ? 6 : 20;
$dir = sys_get_temp_dir() . '/rapier-body-' . getmypid();
$keep = $dir . '-kept';
mkdir($dir);
mkdir($keep);
$srv = http_server_start('function ($req, $res) {
    $keep = ' . var_export($keep, true) . ';
    $file = $req->bodyFile();
    $out = [
        "size" => $req->bodySize(),
        "spooled" => $file !== null,
        "in_tmp_dir" => $file !== null && dirname($file) === ini_get("upload_tmp_dir"),
        "private" => $file !== null && (fileperms($file) & 0777) === 0600,
    ];
    switch ($req->path) {
        case "/stream":
            $h = $req->bodyStream();
            $ctx = hash_init("md5");
            while (!feof($h)) {
                hash_update($ctx, fread($h, 65536));
            }
            $out["md5"] = hash_final($ctx);
            $out["peak_mb"] = intdiv(memory_get_peak_usage(), 1 << 20);
            break;
        case "/body":
            $out["md5"] = md5($req->body());
            $out["md5_stream"] = md5(stream_get_contents($req->bodyStream()));
            $out["md5_again"] = md5($req->body());
            break;
        case "/save":
            $req->saveBody("$keep/first");
            $out["moved"] = $file !== null && !file_exists($file);
            $out["now_at"] = $req->bodyFile() === null ? null : basename($req->bodyFile());
            $out["mode_ok"] = (fileperms("$keep/first") & 0777) === (0666 & ~umask());
            $req->saveBody("$keep/second");
            $out["md5"] = [md5_file("$keep/first"), md5_file("$keep/second"), md5($req->body())];
            break;
        case "/gone":
            unlink($file);
            foreach (["body", "bodyStream"] as $m) {
                try {
                    $req->$m();
                    $out[$m] = "no exception";
                } catch (Rapier\Exception $e) {
                    $out[$m] = get_class($e) . ": " . str_replace($file, "FILE", $e->getMessage());
                }
            }
            break;
        case "/save-bad":
            try {
                $req->saveBody("/nonexistent-dir/x");
                $out["error"] = "no exception";
            } catch (Rapier\Exception $e) {
                $out["error"] = get_class($e) . ": " . $e->getMessage();
            }
            $out["still_there"] = file_exists($file);
            break;
        case "/form":
            $out["fields"] = array_map("strlen", $req->post);
            break;
    }
    $res->json($out);
}', ['body_buffer_size' => 4096, 'max_body_size' => ($mib + 4) << 20], '', '', ['upload_tmp_dir' => $dir]);
$files = fn($d) => array_values(array_diff(scandir($d), ['.', '..']));
/* A request's files go when the worker lets go of the Request, just after its response: waited for, not raced. */
$left = function () use ($files, $dir): int {
    http_test_poll(fn() => count($files($dir)) === 0 ?: null, 5);
    return count($files($dir));
};
$put = fn(string $path, string $body) => "PUT $path HTTP/1.1\r\nHost: x\r\nContent-Length: " . strlen($body) . "\r\n\r\n" . $body;
$chunked = function (string $path, string $body, int $size): string {
    $raw = "PUT $path HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    foreach (str_split($body, $size) as $chunk) {
        $raw .= dechex(strlen($chunk)) . "\r\n$chunk\r\n";
    }
    return $raw . "0\r\n\r\n";
};
$show = function (string $what, ?array $r) {
    echo "$what: ", $r === null ? 'no answer' : $r['status'] . ' ' . $r['body'], "\n";
};

$c = new HttpTestConn($srv->port);
$small = random_bytes(4096);
$c->send($put('/body', $small));
$j = json_decode($c->response()['body'], true);
echo "4096 bytes: spooled ", var_export($j['spooled'], true), ", size {$j['size']}, md5 ", var_export($j['md5'] === md5($small), true), "\n";

$chunks = random_bytes(3000);
$c->send($chunked('/body', $chunks, 1000));
$j = json_decode($c->response()['body'], true);
echo "chunked 3000 bytes: spooled ", var_export($j['spooled'], true), ", size {$j['size']}, md5 ", var_export($j['md5'] === md5($chunks), true), "\n";

$larger = random_bytes(4097);
$c->send($put('/body', $larger));
$j = json_decode($c->response()['body'], true);
echo "4097 bytes: spooled ", var_export($j['spooled'], true), " in upload_tmp_dir ", var_export($j['in_tmp_dir'], true),
    ", private ", var_export($j['private'], true), ", size {$j['size']}, md5 of body(), its stream, body() again: ",
    var_export([$j['md5'], $j['md5_stream'], $j['md5_again']] === array_fill(0, 3, md5($larger)), true), "\n";

$mb = random_bytes(1 << 20);
$c->send($chunked('/body', $mb, 10000));
$j = json_decode($c->response()['body'], true);
echo "chunked 1 MiB: spooled ", var_export($j['spooled'], true), ", size {$j['size']}, md5 ",
    var_export($j['md5'] === md5($mb) && $j['md5_stream'] === md5($mb), true), "\n";
echo "files left: ", $left(), "\n";

/* 20 MiB, half of it sent: the file is already on disk; read as a stream it never sits in memory. */
$content = str_repeat(random_bytes(1 << 20), $mib);
$whole = $put('/stream', $content);
$c->send(substr($whole, 0, ($mib >> 1) << 20));
$deadline = microtime(true) + http_test_timeout(5);
do {
    usleep(20000);
    clearstatcache();
    $spooled = array_sum(array_map(fn($f) => filesize("$dir/$f"), $files($dir)));
} while ($spooled < ((($mib >> 1) - 1) << 20) && microtime(true) < $deadline);
echo "spooled while arriving: ", var_export($spooled >= ((($mib >> 1) - 1) << 20), true), "\n";
$c->send(substr($whole, ($mib >> 1) << 20));
$j = json_decode($c->response()['body'], true);
echo "$mib MiB by bodyStream(): size matches ", var_export($j['size'] === strlen($content), true), ", md5 ", var_export($j['md5'] === md5($content), true),
    ", peak memory under 10 MiB: ", var_export($j['peak_mb'] < 10, true), "\n";
echo "files left: ", $left(), "\n";

$c->send($put('/save', $larger));
$j = json_decode($c->response()['body'], true);
echo "saveBody(): moved ", var_export($j['moved'], true), ", bodyFile() now {$j['now_at']}, mode ", var_export($j['mode_ok'], true),
    ", copies and body() match: ", var_export($j['md5'] === array_fill(0, 3, md5($larger)), true), "\n";
$c->send($put('/save', $small));
$j = json_decode($c->response()['body'], true);
echo "saveBody() from memory: bodyFile() ", var_export($j['now_at'], true), ", copies match: ",
    var_export($j['md5'] === array_fill(0, 3, md5($small)), true), "\n";
echo "files left: ", $left(), ", kept: ", implode(' ', $files($keep)), ", kept content: ",
    var_export(file_get_contents("$keep/first") === $small && file_get_contents("$keep/second") === $small, true), "\n";

$c->send($put('/gone', $larger));
$j = json_decode($c->response()['body'], true);
echo "file removed by the application:\n  body(): {$j['body']}\n  bodyStream(): {$j['bodyStream']}\n";
$c->send($put('/save-bad', $larger));
$j = json_decode($c->response()['body'], true);
echo "saveBody() into a missing directory: {$j['error']}; the body kept: ", var_export($j['still_there'], true), "\n";

$form = 'a=' . str_repeat('x', 6000) . '&b=' . str_repeat('y', 10);
$c->send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " . strlen($form) . "\r\n\r\n" . $form);
$j = json_decode($c->response()['body'], true);
echo "urlencoded 6 KB: spooled ", var_export($j['spooled'], true), ", fields ", json_encode($j['fields']), "\n";
$c->close();

/* Chunked past max_body_size: 413 once it passes, the file goes. */
$c = new HttpTestConn($srv->port);
$c->send("PUT /body HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
$chunk = "100000\r\n" . str_repeat('z', 1 << 20) . "\r\n";
for ($i = 0; $i < $mib + 5 && !$c->eof; $i++) {
    $c->send($chunk);
}
$r = $c->response();
echo "chunked over max_body_size: {$r['status']}, closed: ", var_export($c->closedWithin(2), true), "\n";
echo "files left: ", $left(), "\n";

/* The client goes away mid-body. */
$c = new HttpTestConn($srv->port);
$c->send(substr($whole, 0, 4 << 20));
http_test_poll(fn() => count($files($dir)) > 0 ?: null, http_test_timeout(5));
$c->close();
http_test_poll(fn() => count($files($dir)) === 0 ?: null, http_test_timeout(5));
echo "files left after a disconnect: ", count($files($dir)), "\n";
echo "still serving: ", http_get($srv->port, '/')['status'], "\n";
http_report_stop($srv);

/* body_buffer_size 0 keeps every body in memory; an upload_tmp_dir that cannot take the file is the server's error. */
$srv = http_server_start('function ($req, $res) {
    $res->json(["spooled" => $req->bodyFile() !== null, "md5" => md5($req->body())]);
}', ['body_buffer_size' => 0, 'max_body_size' => 32 << 20], '', '', ['upload_tmp_dir' => $dir]);
$r = http_request($srv->port, $put('/', $mb));
echo "body_buffer_size 0: ", $r['body'] === json_encode(['spooled' => false, 'md5' => md5($mb)]) ? 'in memory' : $r['body'], "\n";
http_report_stop($srv);

$srv = http_server_start('function ($req, $res) {
    $res->json(["size" => $req->bodySize()]);
}', ['body_buffer_size' => 4096], '', '', ['upload_tmp_dir' => "$dir/missing"]);
$show('no temporary directory, 100 bytes', http_request($srv->port, $put('/', str_repeat('a', 100))));
$r = http_request($srv->port, $put('/', $larger));
echo "no temporary directory, 4097 bytes: {$r['status']}\n";
$r = $srv->stop();
echo "exit: {$r['code']}, logged: ", var_export(str_contains($r['err'], "upload_tmp_dir $dir/missing is not a writable directory (No such file or directory)"), true), "\n";

try {
    new Rapier\Http\Server('127.0.0.1', 0, ['body_buffer_size' => -1]);
} catch (Throwable $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
foreach ([$dir, $keep] as $d) {
    array_map(fn($f) => unlink("$d/$f"), $files($d));
    rmdir($d);
}
?>
--EXPECTF--
4096 bytes: spooled false, size 4096, md5 true
chunked 3000 bytes: spooled false, size 3000, md5 true
4097 bytes: spooled true in upload_tmp_dir true, private true, size 4097, md5 of body(), its stream, body() again: true
chunked 1 MiB: spooled true, size 1048576, md5 true
files left: 0
spooled while arriving: true
%d MiB by bodyStream(): size matches true, md5 true, peak memory under 10 MiB: true
files left: 0
saveBody(): moved true, bodyFile() now first, mode true, copies and body() match: true
saveBody() from memory: bodyFile() NULL, copies match: true
files left: 0, kept: first second, kept content: true
file removed by the application:
  body(): Rapier\Exception: The request body's file FILE cannot be read whole: it was removed or changed (saveBody() keeps a body)
  bodyStream(): Rapier\Exception: The request body's file FILE cannot be read whole: it was removed or changed (saveBody() keeps a body)
saveBody() into a missing directory: Rapier\Exception: Cannot save the request body to /nonexistent-dir/x: No such file or directory; the body kept: true
urlencoded 6 KB: spooled true, fields {"a":6000,"b":10}
chunked over max_body_size: 413, closed: true
files left: 0
files left after a disconnect: 0
still serving: 200
exit: 0
body_buffer_size 0: in memory
exit: 0
no temporary directory, 100 bytes: 200 {"size":100}
no temporary directory, 4097 bytes: 500
exit: 0, logged: true
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "body_buffer_size" must be an integer between 0 and 9223372036854775807
