<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * `rapier stop | reload | status` against a running server, found through
 * its pid file: --pid-file, else the config's pid_file or app, else the
 * pid file beside the APP given, else .rapier.pid in the current directory.
 */
final class ControlCommand
{
    public const SPEC = [
        'pid-file' => Arguments::VALUE,
        'config' => Arguments::VALUE,
        'json' => Arguments::FLAG,
        'timeout' => Arguments::VALUE,
    ];

    /**
     * How long stop waits by default: the server's shutdown_timeout (30 s)
     * and the cleanup after it; longer when the master says its workers
     * may take longer (its own SIGKILL deadline, plus this margin).
     */
    private const STOP_TIMEOUT = 40.0;
    private const STOP_MARGIN = 5.0;
    /** How long reload waits by default: a new worker may take start_timeout (30 s) to be ready. */
    private const RELOAD_TIMEOUT = 40.0;
    /** Short: a new worker that fails to load lives only a few milliseconds. */
    private const POLL_SECONDS = 0.01;

    private function __construct(private readonly string $pidFile, private readonly ?float $timeout)
    {
    }

    /** @param list<string> $args @throws CliException */
    public static function run(string $command, array $args): int
    {
        $parsed = Arguments::parse($args, self::SPEC);
        if (count($parsed->positional) > 1) {
            throw CliException::usage("$command takes at most one APP (to find its pid file)");
        }
        $settings = ServeConfig::merge($parsed, (string) getcwd());
        $timeout = $parsed->options['timeout'] ?? null;
        if ($timeout !== null && (!is_numeric($timeout) || (float) $timeout <= 0)) {
            throw CliException::usage('--timeout must be a number of seconds greater than 0');
        }
        $self = new self(
            $settings['pid-file'] ?? ServeConfig::defaultPidFile($settings['app'] ?? null),
            $timeout === null ? null : (float) $timeout,
        );

        return match ($command) {
            'stop' => $self->stop(),
            'reload' => $self->reload(),
            'status' => $self->status(isset($parsed->options['json'])),
        };
    }

    private function stop(): int
    {
        $pid = $this->runningMaster();
        Process::signal($pid, Process::SIGTERM);
        // Asked after the signal, which a slow status answer must not delay; the master answers until it exits.
        $timeout = $this->timeout ?? $this->defaultStopTimeout();
        $deadline = microtime(true) + $timeout;
        // Until the process is gone, not just its pid file: the master removes that before it closes its listeners.
        while (Process::alive($pid)) {
            if (microtime(true) >= $deadline) {
                throw new CliException(sprintf('the server (pid %d) has not stopped within %s s: it may still be draining '
                    . '(kill -QUIT %d stops it at once)', $pid, $timeout, $pid));
            }
            usleep((int) (self::POLL_SECONDS * 1e6));
        }
        echo "rapier: stopped (pid $pid)\n";

        return 0;
    }

    /** STOP_TIMEOUT, or longer when the master's own deadline for its workers is (a larger shutdown_timeout). */
    private function defaultStopTimeout(): float
    {
        try {
            $killAfter = (float) (StatusSocket::forPidFile($this->pidFile)->fetch()['master']['shutdown_timeout'] ?? 0);
        } catch (CliException) {
            // No status socket (--workers 0): the process itself keeps its shutdown_timeout.
            $killAfter = 0.0;
        }

        return max(self::STOP_TIMEOUT, $killAfter + self::STOP_MARGIN);
    }

    /**
     * SIGUSR1, then waits until the generation of workers started for this
     * request serves. That is the first one started after the signal: the
     * newest started before it may be a reload already under way (from
     * --watch, or another `reload`), which runs the code as it was then.
     * The master reports the newest started and the newest abandoned
     * generation; one that does not (an older extension) is judged by
     * its reload_failures count and by new processes that appeared and
     * went while the generation stayed.
     */
    private function reload(): int
    {
        $pid = $this->runningMaster();
        $status = StatusSocket::forPidFile($this->pidFile);
        $doc = $status->fetch();
        $serving = (int) $doc['generations']['worker'];
        $ours = (int) ($doc['newest_generations']['worker'] ?? $serving) + 1;
        $failures = $doc['reload_failures'] ?? null;
        self::signalReload($pid, $doc);
        $deadline = microtime(true) + ($this->timeout ?? self::RELOAD_TIMEOUT);
        $seenNew = false;
        while (microtime(true) < $deadline) {
            usleep((int) (self::POLL_SECONDS * 1e6));
            $doc = $status->fetch();
            if ((int) $doc['generations']['worker'] >= $ours) {
                echo "rapier: reloaded (pid $pid): generation {$doc['generations']['worker']} serving\n";
                return 0;
            }
            if (isset($doc['failed_generations'])) {
                $failed = (int) $doc['failed_generations']['worker'] >= $ours;
            } else {
                $new = array_filter($doc['workers'], fn (array $w): bool => $w['role'] === 'worker' && $w['generation'] >= $ours);
                $seenNew = $seenNew || $new !== [];
                $failed = ($failures !== null && ($doc['reload_failures'] ?? 0) > $failures) || ($seenNew && $new === []);
            }
            if ($failed) {
                throw new CliException("the reload failed: the new workers did not start (see the server's log); "
                    . "generation {$doc['generations']['worker']} keeps serving");
            }
        }
        throw new CliException(sprintf('the reload has not finished within %s s (see the server\'s log)',
            $this->timeout ?? self::RELOAD_TIMEOUT));
    }

    /**
     * Asks the master for a reload: SIGUSR1 for the request workers, and
     * SIGUSR2 for the task workers when there are some (they run the
     * app's code too). $doc: the status document, to count them.
     *
     * @param array<string, mixed> $doc
     */
    public static function signalReload(int $pid, array $doc): void
    {
        Process::signal($pid, Process::SIGUSR1);
        if (($doc['totals']['task_workers'] ?? 0) > 0) {
            Process::signal($pid, Process::SIGUSR2);
        }
    }

    private function status(bool $json): int
    {
        if (!file_exists($this->pidFile)) {
            throw new CliException("not running (no pid file at {$this->pidFile})", CliException::NOT_RUNNING);
        }
        $pid = $this->runningMaster(CliException::NOT_RUNNING);
        $socket = StatusSocket::forPidFile($this->pidFile);
        if ($json) {
            echo rtrim($socket->read()), "\n";
        } else {
            $doc = $socket->fetch();
            if ((int) $doc['master']['pid'] !== $pid) {
                throw new CliException("{$socket->path} belongs to pid {$doc['master']['pid']}, not to pid $pid of {$this->pidFile}");
            }
            echo StatusTable::render($doc);
        }

        return 0;
    }

    /** @throws CliException */
    private function runningMaster(int $code = CliException::FAILURE): int
    {
        $text = @file_get_contents($this->pidFile);
        if ($text === false) {
            throw new CliException("no server is running with pid file {$this->pidFile} (not found)", $code);
        }
        $pid = (int) trim($text);
        if ($pid <= 0 || (string) $pid !== trim($text)) {
            throw new CliException("the pid file {$this->pidFile} holds no pid", $code);
        }
        if (!Process::alive($pid)) {
            throw new CliException("the pid file {$this->pidFile} names process $pid, which is not running (a stale file)", $code);
        }
        if (!Process::runsSameProgram($pid)) {
            // The number was reused (after a reboot, say): never signal that process.
            $name = trim((string) @file_get_contents("/proc/$pid/comm"));
            throw new CliException("the pid file {$this->pidFile} names process $pid ($name), which is not a Rapier server (a stale file)", $code);
        }

        return $pid;
    }
}
