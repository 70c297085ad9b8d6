<?php

declare(strict_types=1);

namespace Rapier\Cli;

use Rapier\Cli\Watch\Watcher;

/**
 * The --watch process as the master sees it: `rapier __watch` started
 * beside the server, sharing its stdout (so its one line per reload lands
 * in the same terminal or log), and stopped when the server returns.
 */
final class WatchProcess
{
    /** The first scan of a large tree may take a while. */
    private const READY_TIMEOUT = 30;

    /** @param resource $proc */
    private function __construct(private $proc, private readonly int $owner)
    {
    }

    public static function start(ServeConfig $config, int $master): self
    {
        $args = ['__watch', '--master', (string) $master, '--pid-file', $config->pidFile];
        if ($config->configFile !== null) {
            array_push($args, '--config', $config->configFile);
        }
        $args[] = $config->app;
        $proc = proc_open(Interpreter::rapier(...$args),
            [0 => ['file', '/dev/null', 'r'], 1 => STDOUT, 2 => STDERR, Watcher::READY_FD => ['pipe', 'w']], $pipes);
        if ($proc === false) {
            throw new CliException('cannot start the --watch process');
        }
        // Serve only once the watcher has its first look at the files: an edit made after that is seen.
        stream_set_timeout($pipes[Watcher::READY_FD], self::READY_TIMEOUT);
        $ready = fgets($pipes[Watcher::READY_FD]);
        fclose($pipes[Watcher::READY_FD]);
        if ($ready !== "ready\n") {
            proc_terminate($proc);
            proc_close($proc);
            throw new CliException('the --watch process did not start (see above)');
        }

        return new self($proc, getmypid());
    }

    public function stop(): void
    {
        // Forked workers inherit this object; only the process that started the watcher stops it.
        if (getmypid() !== $this->owner || !is_resource($this->proc)) {
            return;
        }
        proc_terminate($this->proc);
        proc_close($this->proc);
    }
}
