<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * Signals and liveness of other processes, with posix when it is loaded
 * and without it otherwise (/proc, and kill(1) to send).
 */
final class Process
{
    /** Linux signal numbers, for when neither pcntl nor posix defines the constants. */
    public const SIGHUP = 1;
    public const SIGQUIT = 3;
    public const SIGUSR1 = 10;
    public const SIGUSR2 = 12;
    public const SIGTERM = 15;

    private const NAMES = [1 => 'HUP', 3 => 'QUIT', 10 => 'USR1', 12 => 'USR2', 15 => 'TERM'];

    /**
     * Whether running process $pid runs the same program as this one: PHP,
     * named "php" or "php8.2" alike (a daemon runs PHP_BINARY, a shell's
     * `php` may be the unversioned link). Tells a server's pid from one a
     * stale pid file names after the number was reused.
     */
    public static function runsSameProgram(int $pid): bool
    {
        $name = static fn (string|false $comm): string => rtrim(trim((string) $comm), '0123456789.');
        $theirs = @file_get_contents("/proc/$pid/comm");

        // Unreadable: treat it as ours, the safe side for both callers.
        return self::alive($pid) && ($theirs === false || $name($theirs) === $name(@file_get_contents('/proc/self/comm')));
    }

    /** Whether $pid is a running process (a zombie is not). */
    public static function alive(int $pid): bool
    {
        if ($pid <= 0) {
            return false;
        }
        $stat = @file_get_contents("/proc/$pid/stat");
        if ($stat !== false) {
            // "pid (comm) S ...": comm may hold spaces and parentheses; the state follows the last ")".
            $state = substr($stat, (int) strrpos($stat, ')') + 2, 1);

            return $state !== 'Z' && $state !== 'X';
        }
        if (function_exists('posix_kill')) {
            return posix_kill($pid, 0) || posix_get_last_error() === 1;
        }

        return false;
    }

    /** @throws CliException when the signal cannot be sent */
    public static function signal(int $pid, int $signal): void
    {
        if (function_exists('posix_kill')) {
            if (!posix_kill($pid, $signal)) {
                throw new CliException(sprintf('cannot send SIG%s to %d: %s', self::NAMES[$signal] ?? $signal, $pid,
                    posix_strerror(posix_get_last_error())));
            }
            return;
        }
        $out = [];
        exec(sprintf('kill -s %s %d 2>&1', self::NAMES[$signal] ?? $signal, $pid), $out, $status);
        if ($status !== 0) {
            throw new CliException(sprintf('cannot send SIG%s to %d: %s', self::NAMES[$signal] ?? $signal, $pid, implode(' ', $out)));
        }
    }
}
