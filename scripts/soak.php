<?php

/*
 * The soak (make soak, docs/reliability.md): a server with 2 workers takes
 * REQUESTS keep-alive requests (default 1,000,000) of mixed kinds from wrk
 * (hello JSON, multipart uploads, handlers that throw, handlers that wait),
 * while slowloris clients time out and upload clients vanish mid-body.
 * Checked at the end, with the server idle again:
 *   - each worker's RSS is flat within 2 MiB from the end of the warm-up
 *     (the first 10% of the requests) to the end;
 *   - no worker was replaced (same pids), no zombie children;
 *   - each worker holds as many descriptors as at the end of the warm-up
 *     (a worker makes some only when it first needs them: the loop's
 *     low-priority epoll set, say);
 *   - no temporary upload file is left;
 *   - every response was the expected one (wrk's Lua checks the status per kind).
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

/*
 * Hostile side traffic, in a process of its own during each wrk run: ten
 * slowloris clients (half a request head, then nothing: read_timeout cuts
 * them off) and ten uploads that stop mid-body, half of them vanishing.
 */
const HOSTILE = <<<'PHP'
$socks = [];
for ($i = 0; $i < 20; $i++) {
    $s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2);
    if ($s === false) {
        continue;
    }
    fwrite($s, $i % 2 ? "GET / HTTP/1.1\r\nHo"
        : "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n\r\n"
          . "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\"\r\n\r\n" . str_repeat('y', 5000));
    $socks[] = $s;
}
usleep(500000);
foreach ($socks as $i => $s) {
    if ($i % 4 === 0) {
        fclose($s);
        unset($socks[$i]);
    }
}
sleep(3);
PHP;

/* Starts one round of hostile traffic; returns its process, to be closed after the wrk run. */
function hostile_round(int $port)
{
    return proc_open([PHP_BINARY, '-n', '-r', "\$port = $port;\n" . HOSTILE], [], $pipes);
}

$requests = (int) ($argv[1] ?? 1000000);
$ext = loaded_rapier_extension_or_exit('scripts/soak.php');

$dir = sys_get_temp_dir() . '/rapier-soak-' . getmypid();
mkdir("$dir/uploads", 0777, true);
$port = free_tcp_port();
file_put_contents("$dir/server.php", <<<PHP
<?php
\$s = new Rapier\Http\Server('127.0.0.1', $port, ['workers' => 2, 'read_timeout' => 1, 'pid_file' => '$dir/soak.pid']);
\$s->on('request', function (\$req, \$res) {
    switch (\$req->path) {
        case '/upload':
            \$f = \$req->files['f'] ?? null;
            \$res->json(['size' => \$f['size'] ?? -1, 'note' => \$req->post['note'] ?? null]);
            return;
        case '/error':
            throw new RuntimeException('soak: a handler that throws');
        case '/wait':
            Rapier\Coroutine::sleep(0.002);
            \$res->end('waited');
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

    $served = $bad = $errors = 0;
    $warmRss = $fdBefore = null;
    $bursts = 0;
    while ($served < $requests) {
        $hostile = hostile_round($port);
        [$n, $u, $e] = wrk_mixed($port, "$dir/mixed.lua", 5);
        proc_close($hostile);
        $served += $n;
        $bad += $u < 0 ? 1 : $u;
        $errors += $e;
        $bursts++;
        if ($warmRss === null && $served >= $requests / 10) {
            sleep(2); // idle, as at the end: the round's connections are closed
            $warmRss = array_map(fn($p) => proc_status_kib($p, 'VmRSS'), $workers);
            $fdBefore = array_map('fd_count', $workers);
        }
    }
    sleep(2); // slowloris clients reach read_timeout, cut uploads are cleaned
    $endRss = array_map(fn($p) => proc_status_kib($p, 'VmRSS'), $workers);
    $fdAfter = array_map('fd_count', $workers);
    $leftFiles = count(glob("$dir/uploads/*") ?: []);
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
    printf("\nrequests: %s (an eighth uploads, an eighth handlers that throw, answered 500, an eighth waiting), "
        . "hostile bursts: %d (slowloris and vanishing uploads), unexpected responses: %d, socket errors: %d, "
        . "temp files left: %d, workers replaced: %s, zombies: %d\n",
        number_format($served), $bursts, $bad, $errors, $leftFiles, $sameWorkers ? 'none' : 'YES', $z);
    $ok = $flat && $fdBefore === $fdAfter && $leftFiles === 0 && $sameWorkers && $z === 0 && $bad === 0 && $errors === 0;
    echo $ok ? "soak: passed\n" : "soak: FAILED\n";
    $exit = $ok ? 0 : 1;
} finally {
    proc_terminate($master, SIGTERM);
    proc_close($master);
    exec('rm -rf ' . escapeshellarg($dir));
}
exit($exit);
