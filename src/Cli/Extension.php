<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * Makes sure the rapier extension is loaded: when php.ini does not load
 * it, bin/rapier runs itself again with `-d extension=` the module built
 * in this checkout (ext/modules/rapier.so, or $RAPIER_EXTENSION).
 */
final class Extension
{
    /** Set in the environment of the second run, so a module that does not load cannot loop. */
    private const REEXEC_MARK = 'RAPIER_CLI_REEXEC';

    public static function module(): string
    {
        $path = getenv('RAPIER_EXTENSION');

        return is_string($path) && $path !== '' ? $path : dirname(__DIR__, 2) . '/ext/modules/rapier.so';
    }

    /**
     * Returns when the extension is loaded; otherwise runs bin/rapier again
     * with it and ends this process with that run's exit status.
     *
     * @param list<string> $args the arguments after bin/rapier
     * @throws CliException when there is no module to load
     */
    public static function require(array $args): void
    {
        if (extension_loaded('rapier')) {
            return;
        }
        $module = self::module();
        if (getenv(self::REEXEC_MARK) !== false) {
            throw new CliException("$module did not load (see the warning above): rebuild it with `make build`");
        }
        if (!is_file($module)) {
            throw new CliException(sprintf("the rapier extension is not loaded and %s does not exist: build it with "
                . "`make build` in %s, or load it yourself: php -d extension=/path/to/rapier.so %s",
                $module, dirname(__DIR__, 2), Interpreter::script()));
        }
        $command = [...Interpreter::command(), '-d', 'extension=' . $module, Interpreter::script(), ...$args];
        $env = getenv() + [self::REEXEC_MARK => '1'];
        if (function_exists('pcntl_exec')) {
            // The same process goes on with the module: its pid, terminal and signals stay the user's.
            pcntl_exec($command[0], array_slice($command, 1), $env);
            throw new CliException("cannot run {$command[0]}: " . pcntl_strerror(pcntl_get_last_error()));
        }
        $proc = proc_open($command, [0 => STDIN, 1 => STDOUT, 2 => STDERR], $pipes, null, $env);
        if ($proc === false) {
            throw new CliException("cannot run {$command[0]}");
        }
        exit(proc_close($proc));
    }
}
