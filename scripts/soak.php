<?php

/*
 * The soak (make soak, docs/reliability.md): a server with 2 workers takes
 * REQUESTS keep-alive requests (default 3,000,000) of mixed kinds from wrk
 * (hello JSON, multipart uploads, handlers that throw, handlers that wait)
 * and, at the same time, HTTP/2 streams from h2load (hello, waiting
 * handlers, multipart uploads; h2c on the same port) and WebSocket
 * messages echoed (compressed or not, some clients vanishing), while each
 * waiting handler sends a message of up to 4,000 bytes to a worker picked at
 * random (itself or the other), while slowloris
 * clients time out, upload clients vanish mid-body, and HTTP/2 clients
 * reset their uploads or vanish mid-stream.
 * Checked at the end, with the server idle again:
 *   - each worker's RSS is flat within 2 MiB from the end of the warm-up
 *     (the first fifth of the requests: the WebSocket messages of up to
 *     20,000 bytes take malloc's heap a few rounds to settle) to the end;
 *   - no worker was replaced (same pids), no zombie children;
 *   - each worker holds as many descriptors as at the end of the warm-up
 *     (a worker makes some only when it first needs them: the loop's
 *     low-priority epoll set, say);
 *   - no temporary upload file is left;
 *   - every response was the expected one (wrk's Lua checks the status per
 *     kind; h2load counts every HTTP/2 answer a 2xx, none failed or errored;
 *     the WebSocket clients check every echo, pong and close);
 *   - every message sent between the workers was handled, intact (a shared
 *     table counts them on both sides).
 * Prints a Markdown table and exits non-zero when a check fails.
 *
 *   php -d extension=ext/modules/rapier.so scripts/soak.php [REQUESTS]
 */

declare(strict_types=1);

require __DIR__ . '/lib/proc.php';

const FLAT_KIB = 2 * 1024;

function fail(string $why): never
{
    fwrite(STDERR, "soak: $why\n");
    exit(1);
}

function fd_count(int $pid): int
{
    return count(glob("/proc/$pid/fd/*") ?: []);
}

function zombies(int $master): int
{
    $n = 0;
    foreach (proc_children($master) as $pid) {
        $stat = (string) @file_get_contents("/proc/$pid/stat");
        $n += str_contains(substr($stat, (int) strrpos($stat, ')')), ' Z ') ? 1 : 0;
    }
    return $n;
}

/* One wrk run of $seconds; returns [requests, unexpected responses, socket errors]. */
function wrk_mixed(int $port, string $lua, int $seconds): array
{
    $out = (string) shell_exec(sprintf('wrk -t2 -c64 -d%ds -s %s http://127.0.0.1:%d/ 2>&1', $seconds, escapeshellarg($lua), $port));
    if (!preg_match('~(\d+) requests in~', $out, $m)) {
        fail("wrk failed: $out");
    }
    $bad = preg_match('~unexpected: (\d+)~', $out, $u) ? (int) $u[1] : -1;
    $errors = 0;
    if (preg_match('~Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)~', $out, $e)) {
        $errors = (int) $e[1] + (int) $e[2] + (int) $e[3] + (int) $e[4];
    }
    return [(int) $m[1], $bad, $errors];
}

/* A client started now, to run beside wrk: [process, its stdout]; client_output() waits for it. */
function client_start(string|array $command, string $what): array
{
    $proc = proc_open($command, [1 => ['pipe', 'w']], $pipes);
    if ($proc === false) {
        fail("$what did not start");
    }
    return [$proc, $pipes[1]];
}

/* Everything a client started by client_start() printed, once it has exited. */
function client_output(array $run): string
{
    [$proc, $pipe] = $run;
    $out = (string) stream_get_contents($pipe);
    fclose($pipe);
    proc_close($proc);
    return $out;
}

/* h2load for $seconds, beside wrk. */
function h2load_start(string $args, int $seconds): array
{
    return client_start('exec h2load ' . $args . ' -D ' . $seconds . ' 2>&1', 'h2load');
}

/* What an h2load run did: [requests done, answers other than 2xx plus failed and errored requests]. */
function h2load_result(array $run): array
{
    $out = client_output($run);
    if (!preg_match('~requests: \d+ total, \d+ started, (\d+) done, \d+ succeeded, (\d+) failed, (\d+) errored~', $out, $r)
            || !preg_match('~status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx~', $out, $c)) {
        fail("h2load failed: $out");
    }
    return [(int) $r[1], (int) $r[2] + (int) $r[3] + (int) $c[2] + (int) $c[3] + (int) $c[4]];
}

/*
 * Hostile side traffic, in a process of its own during each wrk run: ten
 * slowloris clients (half a request head, then nothing: read_timeout cuts
 * them off) and ten uploads that stop mid-body, half of them vanishing;
 * and six HTTP/2 connections, each with an upload stopped mid-body and a
 * waiting handler's stream: two vanish, two reset both streams and go
 * quiet (keepalive_timeout ends them), two leave the upload to read_timeout.
 */
const HOSTILE = <<<'PHP'
function frame(int $type, int $flags, int $stream, string $payload): string
{
    return substr(pack('N', strlen($payload)), 1) . chr($type) . chr($flags) . pack('N', $stream) . $payload;
}
function literal(string $name, string $value): string
{
    return "\x00" . chr(strlen($name)) . $name . chr(strlen($value)) . $value;   /* names and values under 127 bytes */
}
$head = fn (string $method, string $path, string $more = '') => literal(':method', $method) . literal(':scheme', 'http')
    . literal(':path', $path) . literal(':authority', 'x') . $more;
$socks = $h2 = [];
for ($i = 0; $i < 26; $i++) {
    $s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2);
    if ($s === false) {
        continue;
    }
    if ($i >= 20) {
        fwrite($s, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" . frame(4, 0, 0, '')
            . frame(1, 4, 1, $head('POST', '/upload', literal('content-type', 'multipart/form-data; boundary=B')))
            . frame(0, 0, 1, "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\"\r\n\r\n" . str_repeat('y', 5000))
            . frame(1, 5, 3, $head('GET', '/wait')));
        $h2[$i] = $s;
        continue;
    }
    fwrite($s, $i % 2 ? "GET / HTTP/1.1\r\nHo"
        : "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n\r\n"
          . "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\"\r\n\r\n" . str_repeat('y', 5000));
    $socks[] = $s;
}
usleep(1000);
foreach ($h2 as $i => $s) {
    if ($i % 3 === 1) {
        fwrite($s, frame(3, 0, 1, pack('N', 8)) . frame(3, 0, 3, pack('N', 8)));   /* RST_STREAM CANCEL */
    }
}
usleep(500000);
foreach ($socks as $i => $s) {
    if ($i % 4 === 0) {
        fclose($s);
        unset($socks[$i]);
    }
}
foreach ($h2 as $i => $s) {
    if ($i % 3 === 0) {
        fclose($s);
        unset($h2[$i]);
    }
}
sleep(3);
PHP;

/*
 * WebSocket traffic, in processes of their own during each wrk run: for
 * $seconds, connection after connection (half of them offering
 * permessage-deflate, and then sending half their messages compressed)
 * each exchanges 1 to 40 messages of 0 to 20,000 bytes, text or binary,
 * some fragmented with a ping between the fragments, checks every echo and
 * pong, and closes with 1000; one in ten vanishes instead, mid-message or
 * between messages. Prints "ws: connections messages wrong".
 */
const WS_CLIENT = <<<'PHP'
function frame(int $op, string $payload, bool $fin = true, int $rsv = 0): string
{
    $len = strlen($payload);
    $head = chr(($fin ? 0x80 : 0) | $rsv | $op)
        . ($len < 126 ? chr(0x80 | $len) : ($len < 65536 ? chr(0xfe) . pack('n', $len) : chr(0xff) . pack('J', $len)));
    $key = random_bytes(4);
    return $head . $key . ($payload ^ str_repeat($key, intdiv($len, 4) + 1));
}
function read_exactly($s, int $n): ?string
{
    $buf = '';
    while (strlen($buf) < $n) {
        $chunk = fread($s, $n - strlen($buf));
        if ($chunk === false || $chunk === '') {
            return null;
        }
        $buf .= $chunk;
    }
    return $buf;
}
/* The next frame, a compressed one inflated: [opcode, payload], or null when the connection ended. */
function frame_in($s): ?array
{
    if (($h = read_exactly($s, 2)) === null) {
        return null;
    }
    $len = ord($h[1]) & 0x7f;
    if ($len >= 126 && ($ext = read_exactly($s, $len === 126 ? 2 : 8)) === null) {
        return null;
    }
    $len = $len === 126 ? unpack('n', $ext)[1] : ($len === 127 ? unpack('J', $ext)[1] : $len);
    if (($payload = read_exactly($s, $len)) === null) {
        return null;
    }
    if (ord($h[0]) & 0x40) {
        $payload = inflate_add(inflate_init(ZLIB_ENCODING_RAW), $payload . "\0\0\xff\xff", ZLIB_SYNC_FLUSH);
    }
    return [ord($h[0]) & 0x0f, $payload];
}
$connections = $messages = $wrong = 0;
$end = microtime(true) + $seconds;
while (microtime(true) < $end) {
    $s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5);
    if ($s === false) {
        $wrong++;
        continue;
    }
    stream_set_timeout($s, 10);
    $deflate = mt_rand(0, 1) === 1;
    fwrite($s, "GET /ws HTTP/1.1\r\nHost: soak\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        . 'Sec-WebSocket-Key: ' . base64_encode(random_bytes(16)) . "\r\n"
        . ($deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : '') . "\r\n");
    $head = '';
    while (!str_contains($head, "\r\n\r\n") && ($c = fread($s, 1)) !== false && $c !== '') {
        $head .= $c;
    }
    if (!str_starts_with($head, 'HTTP/1.1 101 ')) {
        $wrong++;
        fclose($s);
        continue;
    }
    $connections++;
    $vanish = mt_rand(1, 10) === 1 ? mt_rand(0, 40) : -1;
    for ($i = mt_rand(1, 40); $i > 0; $i--) {
        $binary = mt_rand(0, 1) === 1;
        $length = mt_rand(0, 20000);
        $data = $binary ? ($length > 0 ? random_bytes($length) : '') : str_repeat('soak ' . mt_rand(), intdiv($length, 15));
        $compressed = $deflate && mt_rand(0, 1) === 1;
        $wire = $compressed ? substr(deflate_add(deflate_init(ZLIB_ENCODING_RAW), $data, ZLIB_SYNC_FLUSH), 0, -4) : $data;
        if ($i === $vanish) {
            fwrite($s, substr(frame($binary ? 2 : 1, $wire, true, $compressed ? 0x40 : 0), 0, mt_rand(0, strlen($wire))));
            break;
        }
        $owed = [];
        if (strlen($wire) > 1 && mt_rand(0, 4) === 0) {
            $cut = mt_rand(1, strlen($wire) - 1);
            $ping = (string) mt_rand();
            fwrite($s, frame($binary ? 2 : 1, substr($wire, 0, $cut), false, $compressed ? 0x40 : 0) . frame(9, $ping)
                . frame(0, substr($wire, $cut)));
            $owed[] = [10, $ping];
        } else {
            fwrite($s, frame($binary ? 2 : 1, $wire, true, $compressed ? 0x40 : 0));
        }
        $owed[] = [$binary ? 2 : 1, $data];
        foreach ($owed as $expected) {
            $wrong += frame_in($s) === $expected ? 0 : 1;
        }
        $messages++;
    }
    if ($vanish < 0) {
        fwrite($s, frame(8, pack('n', 1000)));
        $close = frame_in($s);
        $wrong += $close !== null && $close[0] === 8 && str_starts_with($close[1], pack('n', 1000)) && fread($s, 1) === '' ? 0 : 1;
    }
    fclose($s);
}
echo "ws: $connections $messages $wrong\n";
PHP;

/* A WebSocket client for $seconds, beside wrk. */
function ws_start(int $port, int $seconds): array
{
    return client_start([PHP_BINARY, '-n', '-r', "\$port = $port; \$seconds = $seconds;\n" . WS_CLIENT], 'the WebSocket client');
}

/* What a WebSocket client did: [connections, messages, wrong answers]. */
function ws_result(array $run): array
{
    $out = client_output($run);
    if (!preg_match('~^ws: (\d+) (\d+) (\d+)$~m', $out, $m)) {
        fail("the WebSocket client failed: $out");
    }
    return [(int) $m[1], (int) $m[2], (int) $m[3]];
}

/* Starts one round of hostile traffic; returns its process, to be closed after the wrk run. */
function hostile_round(int $port)
{
    return proc_open([PHP_BINARY, '-n', '-r', "\$port = $port;\n" . HOSTILE], [], $pipes);
}

$requests = (int) ($argv[1] ?? 3000000);
$ext = loaded_rapier_extension_or_exit('scripts/soak.php');

$dir = sys_get_temp_dir() . '/rapier-soak-' . getmypid();
mkdir("$dir/uploads", 0777, true);
$port = free_tcp_port();
file_put_contents("$dir/server.php", <<<PHP
<?php
\$s = new Rapier\Http\Server('127.0.0.1', $port, ['workers' => 2, 'read_timeout' => 1, 'keepalive_timeout' => 2,
    'http2' => true, 'websocket_compression' => true, 'pid_file' => '$dir/soak.pid']);
/* Messages sent, handled intact, handled damaged: counted in a table both workers share. */
\$messages = new Rapier\Table(4, ['n' => 'int']);
\$s->on('message', function (array \$m, int \$from) use (\$messages) {
    \$messages->incr(md5(\$m[1]) === \$m[0] ? 'handled' : 'damaged', 'n');
});
\$s->on('request', function (\$req, \$res) use (\$s, \$messages) {
    switch (\$req->path) {
        case '/upload':
            \$f = \$req->files['f'] ?? null;
            \$res->json(['size' => \$f['size'] ?? -1, 'note' => \$req->post['note'] ?? null]);
            return;
        case '/error':
            throw new RuntimeException('soak: a handler that throws');
        case '/ws':
            \$ws = \$res->upgrade();
            while ((\$m = \$ws->recv()) !== null) {
                \$ws->send(\$m->data, \$m->binary);
            }
            return;
        case '/wait':
            Rapier\Coroutine::sleep(0.002);
            \$data = str_repeat(chr(random_int(32, 126)), random_int(0, 4000));
            \$messages->incr('sent', 'n');
            \$s->sendMessage([md5(\$data), \$data], random_int(0, 1));
            \$res->end('waited');
            return;
        case '/messages':
            \$res->json(array_map(fn (\$key) => (int) \$messages->get(\$key, 'n'), ['sent' => 'sent', 'handled' => 'handled', 'damaged' => 'damaged']));
            return;
        default:
            \$res->json(['time' => time(), 'str' => 'hello']);
    }
});
\$s->start();
PHP);
/* Lua escapes, not raw bytes: a Lua long string would turn each CRLF into LF. */
$upload = '--B\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--B\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n' . str_repeat('z', 3000) . '\r\n--B--\r\n';
file_put_contents("$dir/mixed.lua", <<<LUA
local kinds = {
  { "GET", "/", nil, nil },
  { "POST", "/upload", { ["Content-Type"] = "multipart/form-data; boundary=B" }, '$upload' },
  { "GET", "/error", nil, nil },
  { "GET", "/wait", nil, nil },
}
local threads = {}
setup = function(thread) table.insert(threads, thread) end
init = function(args) n = 0; bad = 0 end
request = function()
  n = n + 1
  local k = kinds[(n % 8 == 0) and 3 or ((n % 8 == 1) and 2 or ((n % 8 == 2) and 4 or 1))]
  return wrk.format(k[1], k[2], k[3], k[4])
end
-- Responses of one thread's connections come back in any order: each is
-- checked by what it says. A 500 must be the throwing handler's.
response = function(status, headers, body)
  if status == 500 then
    if not string.find(body, "Internal Server Error", 1, true) then bad = bad + 1 end
  elseif status ~= 200 then
    bad = bad + 1
  elseif string.sub(body, 1, 8) == '{"size":' and not string.find(body, '"size":3000,"note":"hi"', 1, true) then
    bad = bad + 1
  end
end
done = function(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("bad") end
  io.write(string.format("unexpected: %d\\n", total))
end
LUA);

/* HTTP/2 beside wrk: hello and waiting handlers, 8 connections of 8 streams; uploads, 2 of 4. */
file_put_contents("$dir/upload.bin", "--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--B\r\n"
    . "Content-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n\r\n" . str_repeat('z', 3000) . "\r\n--B--\r\n");
$h2Hello = "-c 8 -m 8 http://127.0.0.1:$port/ http://127.0.0.1:$port/wait http://127.0.0.1:$port/ http://127.0.0.1:$port/";
$h2Upload = sprintf("-c 2 -m 4 -d %s -H 'content-type: multipart/form-data; boundary=B' http://127.0.0.1:%d/upload",
    escapeshellarg("$dir/upload.bin"), $port);

$master = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", '-d', "upload_tmp_dir=$dir/uploads", "$dir/server.php"],
    [1 => ['file', "$dir/server.out", 'w'], 2 => ['file', "$dir/server.err", 'w']], $pipes);
$masterPid = proc_get_status($master)['pid'];
$exit = 0;
try {
    $deadline = microtime(true) + 10;
    while (count(proc_children($masterPid)) < 2 || @file_get_contents("http://127.0.0.1:$port/") === false) {
        if (microtime(true) > $deadline) {
            fail('the server did not start: ' . @file_get_contents("$dir/server.err"));
        }
        usleep(50000);
    }
    $workers = proc_children($masterPid);

    $served = $servedH2 = $bad = $badH2 = $errors = $wsConnections = $wsMessages = $badWs = 0;
    $warmRss = $fdBefore = null;
    $bursts = 0;
    while ($served + $servedH2 < $requests) {
        $hostile = hostile_round($port);
        $h2Runs = [h2load_start($h2Hello, 5), h2load_start($h2Upload, 5)];
        $wsRuns = [ws_start($port, 5), ws_start($port, 5)];
        [$n, $u, $e] = wrk_mixed($port, "$dir/mixed.lua", 5);
        foreach ($h2Runs as $run) {
            [$n2, $b2] = h2load_result($run);
            $servedH2 += $n2;
            $badH2 += $b2;
        }
        foreach ($wsRuns as $run) {
            [$c, $m, $w] = ws_result($run);
            $wsConnections += $c;
            $wsMessages += $m;
            $badWs += $w;
        }
        proc_close($hostile);
        $served += $n;
        $bad += $u < 0 ? 1 : $u;
        $errors += $e;
        $bursts++;
        if ($warmRss === null && $served + $servedH2 >= $requests / 5) {
            sleep(2); // idle, as at the end: the round's connections are closed
            $warmRss = array_map(fn($p) => proc_status_kib($p, 'VmRSS'), $workers);
            $fdBefore = array_map('fd_count', $workers);
        }
    }
    sleep(2); // slowloris clients reach read_timeout, cut uploads are cleaned
    $endRss = array_map(fn($p) => proc_status_kib($p, 'VmRSS'), $workers);
    $fdAfter = array_map('fd_count', $workers);
    $leftFiles = count(glob("$dir/uploads/*") ?: []);
    $msg = json_decode((string) @file_get_contents("http://127.0.0.1:$port/messages"), true) ?? ['sent' => -1, 'handled' => 0, 'damaged' => 0];
    $sameWorkers = proc_children($masterPid) === $workers;
    $z = zombies($masterPid);

    $flat = true;
    printf("| worker | RSS after warm-up | RSS at the end | change | fds after warm-up | fds at the end |\n|---|--:|--:|--:|--:|--:|\n");
    foreach ($workers as $i => $p) {
        $delta = $endRss[$i] - $warmRss[$i];
        $flat = $flat && abs($delta) <= FLAT_KIB;
        printf("| %d (pid %d) | %.1f MiB | %.1f MiB | %+.1f MiB | %d | %d |\n", $i, $p, $warmRss[$i] / 1024,
            $endRss[$i] / 1024, $delta / 1024, $fdBefore[$i], $fdAfter[$i]);
    }
    printf("\nrequests: %s over HTTP/1.1 (an eighth uploads, an eighth handlers that throw, answered 500, an eighth waiting) "
        . "and %s HTTP/2 streams (hello, waiting handlers and uploads), "
        . "%s WebSocket messages echoed on %s connections (a tenth of them vanishing), "
        . "hostile bursts: %d (slowloris, vanishing uploads, HTTP/2 uploads reset or abandoned), "
        . "unexpected responses: %d, unexpected HTTP/2 answers or failed streams: %d, "
        . "WebSocket handshakes, echoes or closes wrong: %d, "
        . "messages between the workers: %s sent, %s handled, %d damaged, socket errors: %d, "
        . "temp files left: %d, workers replaced: %s, zombies: %d\n",
        number_format($served), number_format($servedH2), number_format($wsMessages), number_format($wsConnections),
        $bursts, $bad, $badH2, $badWs, number_format($msg['sent']), number_format($msg['handled']), $msg['damaged'],
        $errors, $leftFiles, $sameWorkers ? 'none' : 'YES', $z);
    $ok = $flat && $fdBefore === $fdAfter && $leftFiles === 0 && $sameWorkers && $z === 0 && $bad === 0 && $badH2 === 0
        && $badWs === 0 && $errors === 0 && $msg['sent'] > 0 && $msg['handled'] === $msg['sent'] && $msg['damaged'] === 0;
    echo $ok ? "soak: passed\n" : "soak: FAILED\n";
    $exit = $ok ? 0 : 1;
} finally {
    proc_terminate($master, SIGTERM);
    proc_close($master);
    exec('rm -rf ' . escapeshellarg($dir));
}
exit($exit);
