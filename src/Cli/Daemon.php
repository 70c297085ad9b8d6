<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * `rapier serve --daemon`: runs the same serve command again in a new
 * session (setsid), with no terminal, its output appended to the log
 * file, and returns once the server has written its pid file. A start
 * that fails is reported from the log, and the exit status says so.
 *
 * A new process rather than fork(): pcntl may not be loaded, and a PHP
 * process cannot point its own stdout and stderr at a file.
 */
final class Daemon
{
    /** The app probe, binding and the master's checks take well under a second; a slow app load may take more. */
    private const START_TIMEOUT = 60.0;

    /** @param list<string> $args the serve arguments as given @throws CliException */
    public static function start(ServeConfig $config, array $args): int
    {
        $log = $config->logFile ?? dirname($config->pidFile) . '/.rapier.log';
        $offset = is_file($log) ? (int) filesize($log) : 0;
        $output = @fopen($log, 'a');
        if ($output === false) {
            throw new CliException("cannot open the log file $log");
        }
        $command = Interpreter::rapier(...array_merge(['serve'], $args, ['--foreground']));
        if (is_executable('/usr/bin/setsid')) {
            // Not a process group leader (proc_open forks first), so setsid(1) runs it in place: same pid.
            array_unshift($command, '/usr/bin/setsid');
        }
        $proc = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => $output, 2 => $output], $pipes);
        fclose($output);
        if ($proc === false) {
            throw new CliException('cannot start the server process');
        }
        $deadline = microtime(true) + self::START_TIMEOUT;
        while (microtime(true) < $deadline) {
            $status = proc_get_status($proc);
            $pid = trim((string) @file_get_contents($config->pidFile));
            if ($status['running'] && $pid === (string) $status['pid']) {
                echo "rapier: serving {$config->app} on {$config->url()} in the background "
                    . "(pid $pid); log: $log\n";
                return 0;
            }
            if (!$status['running']) {
                throw new CliException('the server did not start: ' . self::logSince($log, $offset));
            }
            usleep(20000);
        }
        throw new CliException(sprintf('the server has not written %s within %d s (see %s)', $config->pidFile, self::START_TIMEOUT, $log));
    }

    /** What the failed start wrote: its "rapier: ..." lines when there are some, else the last line. */
    private static function logSince(string $log, int $offset): string
    {
        $text = (string) @file_get_contents($log, false, null, $offset);
        $lines = array_values(array_filter(array_map('trim', explode("\n", $text))));
        $ours = array_values(array_filter($lines, fn (string $l): bool => str_starts_with($l, 'rapier: ')));
        if ($ours !== []) {
            return substr(end($ours), strlen('rapier: '));
        }

        return $lines === [] ? "nothing in $log" : end($lines) . " (see $log)";
    }
}
