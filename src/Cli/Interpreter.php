<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * How this PHP was started, to start more of the same (the app probe, the
 * file watcher, a daemon): the binary and the options before the script
 * (-n, -c, -d extension=...), read from /proc/self/cmdline, so extensions
 * loaded with -d (rapier.so, psr.so) are loaded in the children too.
 */
final class Interpreter
{
    /** PHP CLI options that take a value as the next argument. */
    private const WITH_VALUE = ['-c', '-d', '-z'];

    /** The path of bin/rapier. */
    public static function script(): string
    {
        return dirname(__DIR__, 2) . '/bin/rapier';
    }

    /** @return list<string> PHP_BINARY and the interpreter options of this process */
    public static function command(): array
    {
        $cmdline = @file_get_contents('/proc/self/cmdline');
        if ($cmdline === false || $cmdline === '') {
            return [PHP_BINARY];
        }
        $args = explode("\0", rtrim($cmdline, "\0"));
        $options = [];
        for ($i = 1, $n = count($args); $i < $n; $i++) {
            $arg = $args[$i];
            if (in_array($arg, self::WITH_VALUE, true) && $i + 1 < $n) {
                $options[] = $arg;
                $options[] = $args[++$i];
            } elseif ($arg !== '-f' && $arg !== '--' && strlen($arg) > 1 && $arg[0] === '-') {
                $options[] = $arg;
            } else {
                break;
            }
        }

        return [PHP_BINARY, ...$options];
    }

    /** @return list<string> a command running `rapier $args` with this interpreter */
    public static function rapier(string ...$args): array
    {
        return [...self::command(), self::script(), ...$args];
    }
}
