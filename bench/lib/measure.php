<?php

/*
 * One measured step of the benchmark: wrk against one server, one scenario,
 * one number of connections, with the server's process tree sampled from
 * /proc before and after (CPU) and in the middle of the run (memory).
 * Appends one JSON record to --out and prints one progress line.
 *
 *   php measure.php --server=NAME --scenario=S --connections=N --duration=SECONDS
 *       --url=http://127.0.0.1:PORT --pids=PID[,PID] --mariadb=PID --redis=PID
 *       --expect-dir=DIR --out=FILE [--check] [--warmup=SECONDS] [--step=3/38] [--round=N]
 *
 * --round numbers the repetition of the step (run.sh's ROUNDS; 1 by default).
 *
 * --pids are the roots of the server's trees (nginx master, php-fpm master,
 * Rapier master); MariaDB and Redis are measured apart, and so are wrk
 * itself (our child, from getrusage) and the whole machine (/proc/stat), so
 * that the report can show how much CPU went to anything else ("other": at
 * normal priority; niced processes and the kernel's network softirq work are
 * recorded apart).
 *
 * Exit status: 0 measured, 3 the pre-check (--check) failed, 4 the server
 * never became idle before the step (both recorded).
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/ProcTree.php';
require __DIR__ . '/Probe.php';

const WRK_THREADS = 2;
// wrk's default, written out: a response slower than this counts as a
// timeout (a socket error) and its latency is not recorded.
const WRK_TIMEOUT = '2s';
// Warm-up connections: enough to reach every worker and fill opcache and
// pools, few enough to stay short at any concurrency.
const WARMUP_CONNECTIONS = 100;
// Idle is under 10% of a core over half a second: /proc counts in 10 ms
// ticks, so a shorter window or a lower share would be below resolution,
// and MariaDB's background threads never quite reach zero.
const SETTLE_WINDOW = 0.5;
const SETTLE_IDLE = 0.1;
// Lumen on php-fpm needs about 55 s to run the backlog that 100 queries at
// 10,000 connections leave behind; a server still busy after this is not measured.
const SETTLE_MAX = 180.0;

/** @return array<string, string|false> */
function options(): array
{
    $o = getopt('', ['server:', 'scenario:', 'connections:', 'duration:', 'url:', 'pids:', 'mariadb:',
        'redis:', 'expect-dir:', 'out:', 'check', 'warmup:', 'step:', 'round:']);
    foreach (['server', 'scenario', 'connections', 'duration', 'url', 'pids', 'mariadb', 'redis', 'expect-dir', 'out'] as $name) {
        if (!isset($o[$name]) || !is_string($o[$name])) {
            fwrite(STDERR, "measure: --$name is required\n");
            exit(2);
        }
    }

    return $o;
}

/**
 * Starts wrk with the validating script; the caller reads its pipes.
 *
 * @return array{resource, array<int, resource>} the process and its stdout/stderr pipes
 */
function run_wrk(string $url, string $scenario, string $expectDir, int $connections, float $seconds): array
{
    $path = $scenario === 'user' ? '/user/1' : "/$scenario";
    $command = ['wrk', '-t', (string) min(WRK_THREADS, $connections), '-c', (string) $connections,
        '-d', sprintf('%.0fs', max(1, $seconds)), '--timeout', WRK_TIMEOUT, '-s', __DIR__ . '/validate.lua', $url . $path];
    $env = getenv();
    $env['BENCH_SCENARIO'] = $scenario;
    $env['BENCH_EXPECT'] = $scenario === 'redis' ? "$expectDir/redis.json" : '';
    $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    if ($process === false) {
        throw new \RuntimeException('cannot start wrk');
    }

    return [$process, $pipes];
}

/** User + system CPU seconds of our reaped children: the wrk runs. */
function children_cpu(): float
{
    $u = getrusage(1);

    return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
}

/** @param array<string, mixed> $record */
function append_record(string $file, array $record): void
{
    file_put_contents($file, json_encode($record, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES) . "\n", FILE_APPEND | LOCK_EX);
}

/**
 * Starts wrk, samples memory half-way, waits for the end.
 *
 * @param list<int> $roots
 * @return array{wrk: array<string, mixed>|null, stderr: string, wall: float, memory: array{rss: int, pss: int}, processes: int}
 */
function measured_run(array $o, array $roots): array
{
    $duration = (float) $o['duration'];
    $started = microtime(true);
    [$process, $pipes] = run_wrk($o['url'], $o['scenario'], $o['expect-dir'], (int) $o['connections'], $duration);
    usleep((int) ($duration * 500_000));
    $pids = ProcTree::pids($roots);
    $memory = ProcTree::memory($pids);
    $stdout = stream_get_contents($pipes[1]);
    $stderr = stream_get_contents($pipes[2]);
    proc_close($process);
    $wall = microtime(true) - $started;

    $wrk = null;
    if (preg_match('/^BENCH (\{.*\})$/m', (string) $stdout, $m) === 1) {
        $wrk = json_decode($m[1], true, flags: JSON_THROW_ON_ERROR);
    }

    return ['wrk' => $wrk, 'stderr' => trim((string) $stderr), 'wall' => $wall, 'memory' => $memory, 'processes' => count($pids)];
}

/**
 * Waits until the server's tree and MariaDB are nearly idle, at most
 * SETTLE_MAX seconds; returns the seconds waited, null when they never
 * were. Requests queued by the warm-up or by the previous step (php-fpm
 * runs every request in its backlog, even for a client that has gone) must
 * not be counted in this one.
 *
 * @param list<int> $roots
 */
function settle(array $roots, int $mariadb): ?float
{
    $started = microtime(true);
    do {
        $before = ProcTree::cpuSeconds(ProcTree::pids($roots)) + ProcTree::cpuSeconds([$mariadb]);
        usleep((int) (SETTLE_WINDOW * 1e6));
        $used = ProcTree::cpuSeconds(ProcTree::pids($roots)) + ProcTree::cpuSeconds([$mariadb]) - $before;
        if ($used <= SETTLE_IDLE * SETTLE_WINDOW) {
            return microtime(true) - $started;
        }
    } while (microtime(true) - $started < SETTLE_MAX);

    return null;
}

/** Records and reports a step that cannot be measured, and ends with $status. */
function skip_step(array $o, array $base, string $error, int $status): never
{
    append_record($o['out'], $base + ['error' => $error]);
    progress("$error\n");
    exit($status);
}

function progress(string $text): void
{
    fwrite(STDERR, $text);
}

$o = options();
$roots = array_map('intval', explode(',', $o['pids']));
$connections = (int) $o['connections'];
$base = ['server' => $o['server'], 'scenario' => $o['scenario'], 'connections' => $connections,
    'round' => max(1, (int) ($o['round'] ?? 1))];
progress(sprintf('%-8s %-13s %-8s c=%-6d ', $o['step'] ?? '', $o['server'], $o['scenario'], $connections));

// The previous step may have left a backlog (php-fpm at 10,000 connections
// answers 502 until it has worked through it): start from an idle server.
$settled = settle($roots, (int) $o['mariadb'])
    ?? skip_step($o, $base, sprintf('still busy after %d s (the backlog of the step before)', SETTLE_MAX), 4);
if (isset($o['check'])) {
    $error = Probe::check($o['scenario'], $o['url'], $o['expect-dir']);
    if ($error !== null) {
        skip_step($o, $base, "pre-check failed: $error", 3);
    }
}
if (isset($o['warmup']) && (float) $o['warmup'] > 0) {
    [$process, $pipes] = run_wrk($o['url'], $o['scenario'], $o['expect-dir'], min($connections, WARMUP_CONNECTIONS), (float) $o['warmup']);
    stream_get_contents($pipes[1]);
    proc_close($process);
    $settled += settle($roots, (int) $o['mariadb'])
        ?? skip_step($o, $base, sprintf('still busy %d s after the warm-up', SETTLE_MAX), 4);
}

$before = [
    'server' => ProcTree::cpuSeconds(ProcTree::pids($roots)),
    'mariadb' => ProcTree::cpuSeconds([(int) $o['mariadb']]),
    'redis' => ProcTree::cpuSeconds([(int) $o['redis']]),
    'wrk' => children_cpu(),
] + ProcTree::machineSeconds();
$run = measured_run($o, $roots);
$after = [
    'server' => ProcTree::cpuSeconds(ProcTree::pids($roots)),
    'mariadb' => ProcTree::cpuSeconds([(int) $o['mariadb']]),
    'redis' => ProcTree::cpuSeconds([(int) $o['redis']]),
    'wrk' => children_cpu(),
] + ProcTree::machineSeconds();

$wrk = $run['wrk'];
if ($wrk === null) {
    append_record($o['out'], $base + ['error' => 'wrk failed: ' . $run['stderr']]);
    progress("wrk failed: {$run['stderr']}\n");
    exit(0);
}

$cpu = [];
foreach ($before as $what => $seconds) {
    $cpu[$what] = round($after[$what] - $seconds, 3);
}
// Everything else at normal priority: other programs on a shared machine.
$cpu['other'] = round(max(0.0, $cpu['busy'] - $cpu['server'] - $cpu['mariadb'] - $cpu['redis'] - $cpu['wrk']), 3);
$requests = (int) $wrk['requests'];
$seconds = $wrk['duration_us'] / 1e6;
$perRequest = static fn (float $s): ?float => $requests > 0 ? round($s * 1e6 / $requests, 2) : null;
$socketErrors = $wrk['connect_errors'] + $wrk['read_errors'] + $wrk['write_errors'] + $wrk['timeouts'];

$record = $base + [
    'duration_s' => round($seconds, 3),
    'wall_s' => round($run['wall'], 3),
    'requests' => $requests,
    'rps' => round($requests / max($seconds, 1e-9), 1),
    'latency_ms' => array_map(static fn (float|int $us): float => round($us / 1000, 3), $wrk['latency_us']),
    'non2xx' => $wrk['non2xx'],
    'bad_body' => $wrk['bad'],
    'socket_errors' => $socketErrors,
    'errors' => ['connect' => $wrk['connect_errors'], 'read' => $wrk['read_errors'], 'write' => $wrk['write_errors'], 'timeout' => $wrk['timeouts']],
    'cpu_s' => $cpu,
    'cpu_us_per_request' => [
        'server' => $perRequest($cpu['server']),
        'mariadb' => $perRequest($cpu['mariadb']),
        'redis' => $perRequest($cpu['redis']),
        'wrk' => $perRequest($cpu['wrk']),
    ],
    'settle_s' => round($settled, 1),
    'server_processes' => $run['processes'],
    'rss_bytes' => $run['memory']['rss'],
    'pss_bytes' => $run['memory']['pss'],
    'sample' => $wrk['sample'],
];
append_record($o['out'], $record);

if ($requests === 0) {
    progress(sprintf("no response within %s%s\n", WRK_TIMEOUT,
        $socketErrors > 0 ? sprintf(' (%d socket errors)', $socketErrors) : ''));
    exit(0);
}
progress(sprintf("%9s req/s  p99 %8.2f ms  %8.1f us/req  rss %6.1f MB%s%s\n",
    number_format($record['rps']), $record['latency_ms']['p99'], $record['cpu_us_per_request']['server'] ?? 0,
    $record['rss_bytes'] / 1048576,
    $socketErrors + $wrk['non2xx'] + $wrk['bad'] > 0
        ? sprintf('  errors: %d non-2xx, %d bad body, %d socket', $wrk['non2xx'], $wrk['bad'], $socketErrors) : '',
    $cpu['other'] > 0.2 * $seconds ? sprintf('  (other load: %.0f%% of a core)', 100 * $cpu['other'] / $seconds) : ''));
