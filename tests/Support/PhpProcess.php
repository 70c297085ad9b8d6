<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use RuntimeException;

/**
 * Runs a PHP script in a child process with the Rapier module loaded, for
 * behaviour that ends or may crash the process (fatal errors, races that
 * used to segfault): the suite survives, and the test sees the exit status.
 */
final class PhpProcess
{
    /** A child that does not finish by then is killed and reported. */
    private const TIMEOUT_SECONDS = 60;

    private function __construct(
        public readonly int $exitCode,
        public readonly ?int $signal,
        public readonly string $stdout,
        public readonly string $stderr,
    ) {
    }

    public static function run(string $code): self
    {
        $script = tempnam(sys_get_temp_dir(), 'rapier-child-');
        file_put_contents($script, $code);
        try {
            return self::runCommand([
                PHP_BINARY,
                '-d', 'extension=' . Cli::extension(),
                '-d', 'display_errors=0',
                '-d', 'log_errors=1',
                '-d', 'error_log=',
                $script,
            ]);
        } finally {
            unlink($script);
        }
    }

    public function describe(): string
    {
        $signal = $this->signal === null ? '' : " (signal {$this->signal})";

        return "exit code {$this->exitCode}$signal\n--- stdout\n{$this->stdout}\n--- stderr\n{$this->stderr}";
    }

    /**
     * Runs $command (a PHP_BINARY with the module among its arguments, or a
     * wrapper that starts one) to completion.
     *
     * @param list<string> $command
     * @param array<string, string>|null $env the child's whole environment; null: this one's
     */
    public static function runCommand(array $command, ?array $env = null): self
    {
        $pipes = [];
        $proc = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        if ($proc === false) {
            throw new RuntimeException('Cannot start ' . $command[0]);
        }
        $out = ['', ''];
        $open = [1 => $pipes[1], 2 => $pipes[2]];
        $deadline = microtime(true) + self::TIMEOUT_SECONDS;
        while ($open !== [] && microtime(true) < $deadline) {
            $read = array_values($open);
            $write = $except = null;
            if (stream_select($read, $write, $except, 1) === false) {
                break;
            }
            foreach ($open as $fd => $pipe) {
                if (in_array($pipe, $read, true)) {
                    $chunk = fread($pipe, 65536);
                    if ($chunk === '' || $chunk === false) {
                        unset($open[$fd]);
                    } else {
                        $out[$fd - 1] .= $chunk;
                    }
                }
            }
        }
        if ($open !== []) {
            proc_terminate($proc, 9);
        }
        do {
            $status = proc_get_status($proc);
            if ($status['running']) {
                usleep(10000);
            }
        } while ($status['running']);
        proc_close($proc);
        if ($open !== []) {
            throw new RuntimeException('Child PHP process timed out after ' . self::TIMEOUT_SECONDS . "s\n" . $out[0] . $out[1]);
        }

        return new self($status['exitcode'], $status['signaled'] ? $status['termsig'] : null, $out[0], $out[1]);
    }
}
