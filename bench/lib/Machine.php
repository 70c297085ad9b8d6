<?php

/*
 * What the benchmark ran on: cores, memory, kernel and the versions of
 * everything measured, plus the load average when the run began (the
 * machine may be shared, and the report should say so).
 */

declare(strict_types=1);

namespace Bench;

final class Machine
{
    /** @return array<string, mixed> */
    public static function describe(string $rapierSo): array
    {
        $cpuinfo = (string) @file_get_contents('/proc/cpuinfo');
        $meminfo = (string) @file_get_contents('/proc/meminfo');
        $osRelease = (string) @file_get_contents('/etc/os-release');

        return [
            'date' => gmdate('Y-m-d H:i:s') . ' UTC',
            'cores' => (int) trim((string) shell_exec('nproc')),
            'cpu' => preg_match('/^model name\s*:\s*(.+)$/m', $cpuinfo, $m) === 1 ? trim($m[1]) : 'unknown',
            'memory_bytes' => preg_match('/^MemTotal:\s+(\d+) kB/m', $meminfo, $m) === 1 ? (int) $m[1] * 1024 : 0,
            'os' => preg_match('/^PRETTY_NAME="?([^"\n]+)/m', $osRelease, $m) === 1 ? $m[1] : php_uname('s'),
            'kernel' => php_uname('r'),
            'load_average_at_start' => array_map(static fn (float $l): float => round($l, 2), sys_getloadavg() ?: []),
            'versions' => [
                'php' => PHP_VERSION,
                'rapier' => self::firstLine('php -d extension=' . escapeshellarg($rapierSo) . ' -r ' . escapeshellarg('echo phpversion("rapier");')),
                'nginx' => self::firstLine('nginx -v', '#nginx/(\S+)#'),
                'php-fpm' => self::firstLine('php-fpm8.2 -v', '#PHP (\S+)#'),
                'mariadb' => self::firstLine('mariadbd --version', '#Ver (\S+)#'),
                'redis' => self::firstLine('redis-server --version', '#v=(\S+)#'),
                'wrk' => self::firstLine('wrk -v', '#wrk (\S+)#'),
                'lumen' => self::lumenVersion(),
                // The command's, on Debian the libssl3 that nginx, Rapier and wrk load for HTTPS.
                'openssl' => self::firstLine('openssl version', '#OpenSSL (\S+)#'),
            ],
            'git_commit' => self::firstLine('git -C ' . escapeshellarg(dirname(__DIR__, 2)) . ' describe --always --dirty'),
            // As run.sh exported them for the servers it starts.
            'opcache_jit' => ['rapier' => getenv('BENCH_JIT') ?: 'unknown', 'php-fpm' => getenv('BENCH_FPM_JIT') ?: 'unknown'],
        ];
    }

    private static function firstLine(string $command, string $pattern = '/^(.+)$/m'): string
    {
        $output = (string) shell_exec("$command 2>&1");

        return preg_match($pattern, $output, $m) === 1 ? trim($m[1]) : 'unknown';
    }

    private static function lumenVersion(): string
    {
        $source = (string) @file_get_contents('/usr/share/php/Laravel/Lumen/Application.php');

        return preg_match("/return 'Lumen \\(([^)]+)\\)/", $source, $m) === 1 ? $m[1] : 'unknown';
    }
}
