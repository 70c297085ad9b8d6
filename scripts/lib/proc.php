<?php

/*
 * /proc, port and set-up helpers shared by bench/rss.php and scripts/soak.php, the
 * scripts that watch a running server's processes from outside.
 */

declare(strict_types=1);

/** A field of /proc/PID/status in kB (VmRSS, VmHWM...). */
function proc_status_kib(int $pid, string $field): int
{
    $status = @file_get_contents("/proc/$pid/status");
    if ($status === false || !preg_match("~^$field:\\s+(\\d+) kB~m", $status, $m)) {
        throw new RuntimeException("no $field for pid $pid");
    }
    return (int) $m[1];
}

/** The direct children of pid, sorted. */
function proc_children(int $pid): array
{
    $list = @file_get_contents("/proc/$pid/task/$pid/children");
    $pids = $list === false ? [] : array_map('intval', preg_split('~\s+~', trim($list), -1, PREG_SPLIT_NO_EMPTY));
    sort($pids);
    return $pids;
}

/** A loopback port nobody listens on right now. */
function free_tcp_port(): int
{
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($s, false), ':'), 1);
    fclose($s);
    return $port;
}

/**
 * The rapier.so this process has loaded, for the servers it starts; exits
 * with a message naming $script when it is not loaded or wrk is missing.
 */
function loaded_rapier_extension_or_exit(string $script): string
{
    foreach (file('/proc/self/maps') as $line) {
        if (preg_match('~\s(/\S*/rapier\.so)$~', rtrim($line), $m)) {
            $ext = $m[1];
        }
    }
    if (!isset($ext) || trim((string) shell_exec('command -v wrk')) === '') {
        fwrite(STDERR, "$script needs the rapier extension loaded (-d extension=...) and wrk\n");
        exit(2);
    }
    return $ext;
}
