<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use RuntimeException;

/**
 * A `rapier` process running in the background: normally `rapier serve`,
 * whose pid is the master's. Its output is kept in files for assertions
 * and failure messages. The destructor stops a process still running.
 */
final class ServedApp
{
    private const SIGTERM = 15;
    private const SIGKILL = 9;

    private ?int $exitCode = null;
    private readonly int $pid;

    /** @param resource $proc */
    public function __construct(private $proc, private readonly string $out, private readonly string $err)
    {
        // Read once: every proc_get_status() after the exit would consume the exit code.
        $this->pid = proc_get_status($proc)['pid'];
    }

    public function __destruct()
    {
        if ($this->running()) {
            $this->stop();
        }
        if (is_resource($this->proc)) {
            proc_close($this->proc);
        }
        @unlink($this->out);
        @unlink($this->err);
    }

    public function pid(): int
    {
        return $this->pid;
    }

    public function running(): bool
    {
        if ($this->exitCode !== null) {
            return false;
        }
        $status = proc_get_status($this->proc);
        if ($status['running']) {
            return true;
        }
        // proc_get_status() reports the exit code once only.
        $this->exitCode = $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];

        return false;
    }

    public function exitCode(): ?int
    {
        return $this->running() ? null : $this->exitCode;
    }

    public function stdout(): string
    {
        return (string) file_get_contents($this->out);
    }

    public function stderr(): string
    {
        return (string) file_get_contents($this->err);
    }

    public function output(): string
    {
        return "--- stdout\n" . $this->stdout() . "--- stderr\n" . $this->stderr();
    }

    /** SIGTERM (a graceful stop), then waits; SIGKILL after $timeout. Returns the exit code. */
    public function stop(float $timeout = 30.0): int
    {
        if ($this->running()) {
            proc_terminate($this->proc, self::SIGTERM);
            if (!$this->waitForExit($timeout)) {
                $this->kill();
            }
        }

        return (int) $this->exitCode();
    }

    public function kill(): void
    {
        if ($this->running()) {
            proc_terminate($this->proc, self::SIGKILL);
            $this->waitForExit(10.0);
        }
    }

    public function waitForExit(float $timeout): bool
    {
        $deadline = microtime(true) + $timeout;
        while ($this->running()) {
            if (microtime(true) > $deadline) {
                return false;
            }
            usleep(10000);
        }

        return true;
    }

    /**
     * Waits until the master's status socket lists $workers ready request
     * workers of the serving generation and no process starting or
     * draining, and returns that status document.
     *
     * @return array<string, mixed>
     */
    public function waitForWorkers(string $pidFile, int $workers, float $timeout = 30.0): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $doc = self::status($pidFile);
            if ($doc !== null) {
                $ready = array_filter($doc['workers'], static fn (array $w): bool => $w['role'] === 'worker'
                    && $w['state'] === 'ready' && $w['generation'] === $doc['generations']['worker']);
                $settled = array_filter($doc['workers'], static fn (array $w): bool => $w['state'] !== 'ready');
                if (count($ready) === $workers && $settled === []) {
                    return $doc;
                }
            }
            if (!$this->running()) {
                throw new RuntimeException("rapier exited with code {$this->exitCode} before serving\n" . $this->output());
            }
            usleep(20000);
        } while (microtime(true) < $deadline);
        throw new RuntimeException("rapier did not report $workers ready workers within $timeout s\n" . $this->output());
    }

    /** Waits until something accepts connections on 127.0.0.1:$port. */
    public function waitForPort(int $port, float $timeout = 30.0): void
    {
        $deadline = microtime(true) + $timeout;
        do {
            $socket = self::connect("tcp://127.0.0.1:$port");
            if ($socket !== null) {
                fclose($socket);
                return;
            }
            if (!$this->running()) {
                throw new RuntimeException("rapier exited with code {$this->exitCode} before serving\n" . $this->output());
            }
            usleep(20000);
        } while (microtime(true) < $deadline);
        throw new RuntimeException("nothing listens on port $port after $timeout s\n" . $this->output());
    }

    /**
     * The pids of the request workers in a status document (not task
     * workers or user processes).
     *
     * @param array<string, mixed> $doc
     * @return list<int>
     */
    public static function workerPids(array $doc): array
    {
        $workers = array_filter($doc['workers'], static fn (array $w): bool => $w['role'] === 'worker');

        return array_column($workers, 'pid');
    }

    /**
     * The status document of the master owning $pidFile, null while there is none.
     *
     * @return array<string, mixed>|null
     */
    public static function status(string $pidFile): ?array
    {
        if (!file_exists("$pidFile.sock")) {
            return null;
        }
        $socket = self::connect("unix://$pidFile.sock");
        if ($socket === null) {
            return null;
        }
        $doc = json_decode((string) stream_get_contents($socket), true);
        fclose($socket);

        return is_array($doc) ? $doc : null;
    }

    /**
     * A connection, or null when nothing accepts yet. Not only false: a
     * handler left in place by an earlier test may turn the suppressed
     * warning into an exception.
     *
     * @return resource|null
     */
    private static function connect(string $address)
    {
        try {
            $socket = @stream_socket_client($address, $errno, $error, 5);
        } catch (\Throwable) {
            return null;
        }

        return $socket === false ? null : $socket;
    }
}
