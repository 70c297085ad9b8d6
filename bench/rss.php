<?php

/*
 * Issue 3's memory floors, measured: an idle worker's RSS against a bare
 * `php` with the extension loaded, and the worker's RSS over many
 * keep-alive hello-JSON requests (wrk) after a warm-up.
 *
 *   php -d extension=ext/modules/rapier.so bench/rss.php [REQUESTS]   (default 1,000,000)
 *
 * Prints one table (Markdown) and exits non-zero when a floor is missed:
 * idle worker within 8 MiB of bare php; RSS flat within 2 MiB from the end
 * of the warm-up (the first 10% of the requests) to the end. wrk runs in
 * 5-second steps until the count is reached, so a run serves a little more.
 */

declare(strict_types=1);

require __DIR__ . '/../scripts/lib/proc.php';

const IDLE_FLOOR_KIB = 8 * 1024;
const FLAT_FLOOR_KIB = 2 * 1024;

function wait_for(callable $cond, float $seconds, string $what): void
{
    $deadline = microtime(true) + $seconds;
    while (!$cond()) {
        if (microtime(true) > $deadline) {
            throw new RuntimeException("timed out waiting for $what");
        }
        usleep(20000);
    }
}

/* wrk in 5-second runs until at least $requests responses; returns the totals. */
function wrk_requests(int $port, int $requests, int $connections): array
{
    $total = ['requests' => 0, 'non2xx' => 0, 'errors' => 0];
    while ($total['requests'] < $requests) {
        $out = (string) shell_exec(sprintf('wrk -t1 -c%d -d5s http://127.0.0.1:%d/ 2>&1', $connections, $port));
        if (!preg_match('~(\d+) requests in~', $out, $m) || (int) $m[1] === 0) {
            throw new RuntimeException("wrk failed: $out");
        }
        $total['requests'] += (int) $m[1];
        $total['non2xx'] += preg_match('~Non-2xx or 3xx responses: (\d+)~', $out, $bad) ? (int) $bad[1] : 0;
        if (preg_match('~Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)~', $out, $e)) {
            $total['errors'] += (int) $e[1] + (int) $e[2] + (int) $e[3] + (int) $e[4];
        }
    }
    return $total;
}

$requests = (int) ($argv[1] ?? 1000000);
$ext = loaded_rapier_extension_or_exit('bench/rss.php');

/* Bare php with the extension, idle. */
$bare = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", '-r', 'sleep(30);'], [], $pipes);
$barePid = proc_get_status($bare)['pid'];
usleep(300000);
$bareKib = proc_status_kib($barePid, 'VmRSS');
proc_terminate($bare, SIGKILL);
proc_close($bare);

/* One worker under a master, serving hello JSON. */
$port = free_tcp_port();
$server = tempnam(sys_get_temp_dir(), 'rapier-rss-server-');
file_put_contents($server, <<<PHP
<?php
\$s = new Rapier\Http\Server('127.0.0.1', $port, ['workers' => 1]);
\$s->on('request', function (\$req, \$res) { \$res->json(['time' => time(), 'str' => 'hello']); });
\$s->start();
PHP);
$master = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", $server], [1 => ['file', '/dev/null', 'w'],
    2 => ['file', '/dev/null', 'w']], $pipes);
$masterPid = proc_get_status($master)['pid'];
try {
    wait_for(fn() => @file_get_contents("http://127.0.0.1:$port/") !== false, 10, 'the server');
    $worker = proc_children($masterPid)[0] ?? throw new RuntimeException('no worker process');
    usleep(200000);
    $idleKib = proc_status_kib($worker, 'VmRSS');

    $warm = wrk_requests($port, intdiv($requests, 10), 50);
    $warmKib = proc_status_kib($worker, 'VmRSS');
    $rest = wrk_requests($port, $requests - intdiv($requests, 10), 50);
    $endKib = proc_status_kib($worker, 'VmRSS');
    if (proc_children($masterPid) !== [$worker]) {
        throw new RuntimeException('the worker was replaced during the run');
    }
} finally {
    proc_terminate($master, SIGTERM);
    proc_close($master);
    unlink($server);
}

$served = $warm['requests'] + $rest['requests'];
$idleOk = $idleKib - $bareKib <= IDLE_FLOOR_KIB;
$flatOk = abs($endKib - $warmKib) <= FLAT_FLOOR_KIB;
$mib = fn(int $kib) => sprintf('%.1f MiB', $kib / 1024);
printf("| measure | value | floor | |\n| --- | --- | --- | --- |\n");
printf("| bare php + rapier.so, idle | %s | | |\n", $mib($bareKib));
printf("| idle worker | %s (%+.1f MiB) | within 8 MiB of bare php | %s |\n", $mib($idleKib), ($idleKib - $bareKib) / 1024,
    $idleOk ? 'met' : 'MISSED');
printf("| worker after %s requests (warm-up) | %s | | |\n", number_format($warm['requests']), $mib($warmKib));
printf("| worker after %s requests | %s (%+.1f MiB) | flat within 2 MiB | %s |\n", number_format($served),
    $mib($endKib), ($endKib - $warmKib) / 1024, $flatOk ? 'met' : 'MISSED');
printf("| non-2xx, socket errors | %d, %d | 0 | |\n", $warm['non2xx'] + $rest['non2xx'], $warm['errors'] + $rest['errors']);
exit($idleOk && $flatOk && $served >= $requests * 0.99 ? 0 : 1);
