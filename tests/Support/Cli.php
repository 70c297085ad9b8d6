<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use RuntimeException;

/**
 * Runs bin/rapier the way a user does, in a child process with this PHP
 * and the Rapier module under test: to completion (run) or in the
 * background as a server (serve). Output goes to files, not pipes, so a
 * chatty server can never block on a full pipe.
 */
final class Cli
{
    /** A command that has not finished by then is killed and reported. */
    private const TIMEOUT_SECONDS = 60;

    public static function bin(): string
    {
        return dirname(__DIR__, 2) . '/bin/rapier';
    }

    public static function extension(): string
    {
        $path = getenv('RAPIER_TEST_EXTENSION');

        return $path === false || $path === '' ? dirname(__DIR__, 2) . '/ext/modules/rapier.so' : $path;
    }

    /**
     * @param list<string> $args after bin/rapier
     * @param list<string> $php interpreter options before the module's (-d extension=psr.so...)
     * @return list<string>
     */
    public static function command(array $args, array $php = [], bool $withModule = true): array
    {
        $module = $withModule ? ['-d', 'extension=' . self::extension()] : [];

        return [PHP_BINARY, ...$php, ...$module, self::bin(), ...$args];
    }

    /**
     * Runs `rapier $args` to completion.
     *
     * @param list<string> $args
     * @param list<string> $php
     * @param array<string, string> $env added to this process's environment
     */
    public static function run(array $args, array $php = [], ?string $cwd = null, array $env = [], bool $withModule = true): CliResult
    {
        $process = self::spawn(self::command($args, $php, $withModule), $cwd, $env);
        $deadline = microtime(true) + self::TIMEOUT_SECONDS;
        while ($process->running()) {
            if (microtime(true) > $deadline) {
                $process->kill();
                throw new RuntimeException('rapier ' . implode(' ', $args) . ' did not finish within '
                    . self::TIMEOUT_SECONDS . " s\n" . $process->output());
            }
            usleep(10000);
        }

        return new CliResult((int) $process->exitCode(), $process->stdout(), $process->stderr());
    }

    /**
     * Starts `rapier serve $args` in the background (stopped by the
     * returned object's stop() or destructor).
     *
     * @param list<string> $args after "serve"
     * @param list<string> $php
     * @param array<string, string> $env
     */
    public static function serve(array $args, array $php = [], ?string $cwd = null, array $env = []): ServedApp
    {
        return self::spawn(self::command(['serve', ...$args], $php), $cwd, $env);
    }

    /** A TCP port on 127.0.0.1 that nothing listens on right now. */
    public static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        if ($socket === false) {
            throw new RuntimeException("Cannot find a free port: $error");
        }
        $name = (string) stream_socket_get_name($socket, false);
        fclose($socket);

        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /** A new empty directory, removed with its content by removeDirectory(). */
    public static function tempDirectory(): string
    {
        $dir = sys_get_temp_dir() . '/rapier-cli-' . bin2hex(random_bytes(6));
        mkdir($dir);

        return $dir;
    }

    public static function removeDirectory(string $dir): void
    {
        if (!is_dir($dir) || is_link($dir)) {
            @unlink($dir);
            return;
        }
        foreach (scandir($dir) ?: [] as $name) {
            if ($name !== '.' && $name !== '..') {
                self::removeDirectory("$dir/$name");
            }
        }
        rmdir($dir);
    }

    /**
     * @param list<string> $command
     * @param array<string, string> $env
     */
    private static function spawn(array $command, ?string $cwd, array $env): ServedApp
    {
        $out = tempnam(sys_get_temp_dir(), 'rapier-out-');
        $err = tempnam(sys_get_temp_dir(), 'rapier-err-');
        $proc = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']],
            $pipes, $cwd, $env === [] ? null : getenv() + $env);
        if ($proc === false) {
            throw new RuntimeException('Cannot start ' . implode(' ', $command));
        }

        return new ServedApp($proc, $out, $err);
    }
}
