<?php

declare(strict_types=1);

namespace Rapier\Cli\Watch;

use Rapier\Cli\AppProbe;
use Rapier\Cli\CliException;
use Rapier\Cli\ControlCommand;
use Rapier\Cli\Process;
use Rapier\Cli\ServeConfig;
use Rapier\Cli\StatusSocket;

/**
 * The --watch process: waits for changes, lets a burst of them settle
 * (an editor's save, a git checkout), checks that the app still loads,
 * then asks the master for a graceful reload (ControlCommand::signalReload()). One line per
 * reload. An app that no longer loads is reported and not reloaded: the
 * running workers keep serving the last good code.
 *
 * `rapier serve --watch` runs it in a user process of the server
 * (Server::addProcess()): the master starts it with the workers, starts it
 * again if it dies, and stops it with the server.
 */
final class Watcher
{
    /** Quiet time that ends a burst of changes. */
    public const SETTLE_SECONDS = 0.3;
    /** A burst that never settles is reloaded after this long anyway. */
    public const MAX_SETTLE_SECONDS = 3.0;
    /** How often, at most, the master's liveness is checked between changes. */
    private const LIVENESS_SECONDS = 1.0;

    /** @param resource $out */
    public function __construct(
        private readonly ChangeSource $source,
        private readonly string $app,
        private readonly int $master,
        private readonly string $pidFile,
        private $out = STDOUT,
    ) {
    }

    /**
     * Takes the first look at the app's files, in the master before the
     * server starts: an edit made once the server answers is then seen,
     * however long the watcher process takes to start. The process forked
     * for run() inherits the look (with inotify, the kernel's instance
     * itself, whose queue also holds what changed while a crashed watcher
     * was being replaced).
     */
    public static function forServer(ServeConfig $config, int $master): self
    {
        $dir = is_dir($config->app) ? rtrim($config->app, '/') : dirname($config->app);
        $files = ["$dir/.env"];
        if ($config->configFile !== null) {
            $files[] = $config->configFile;
        }
        if ($config->watchPoll) {
            // Asked for: file systems whose changes inotify never hears of (a VM's shared folder, NFS).
            $source = new PollingSource([$dir], $files);
        } else {
            try {
                $source = new InotifySource([$dir], $files);
            } catch (\Rapier\Exception $e) {
                // inotify limits (fs.inotify.max_user_watches) or no inotify: scanning still works.
                fwrite(STDERR, "rapier: watching by polling: {$e->getMessage()}\n");
                $source = new PollingSource([$dir], $files);
            }
        }

        return new self($source, $config->app, $master, $config->pidFile);
    }

    public function run(): int
    {
        while (Process::alive($this->master)) {
            $changed = $this->source->wait(self::LIVENESS_SECONDS);
            if ($changed === []) {
                continue;
            }
            $this->settle($changed);
            if (Process::alive($this->master)) {
                $this->reload($changed);
            }
        }

        return 0;
    }

    /** @param list<string> $changed grows with the changes of the burst */
    private function settle(array &$changed): void
    {
        $deadline = microtime(true) + self::MAX_SETTLE_SECONDS;
        while (microtime(true) < $deadline && ($more = $this->source->wait(self::SETTLE_SECONDS)) !== []) {
            $changed = array_values(array_unique([...$changed, ...$more]));
        }
    }

    /** @param list<string> $changed */
    private function reload(array $changed): void
    {
        $what = basename($changed[0]) . (count($changed) > 1 ? sprintf(' and %d more', count($changed) - 1) : '');
        try {
            AppProbe::check($this->app);
        } catch (CliException $e) {
            $this->say("$what changed, not reloading: " . $e->getMessage());
            return;
        }
        try {
            ControlCommand::signalReload($this->master, StatusSocket::forPidFile($this->pidFile)->fetch());
        } catch (CliException $e) {
            $this->say("$what changed, not reloading: " . $e->getMessage());
            return;
        }
        $this->say("$what changed, reloading");
    }

    private function say(string $line): void
    {
        fwrite($this->out, sprintf("%s rapier: %s\n", date('H:i:s'), $line));
    }
}
