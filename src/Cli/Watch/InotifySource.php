<?php

declare(strict_types=1);

namespace Rapier\Cli\Watch;

use Rapier\FileWatcher;

/**
 * Changes from inotify (Rapier\FileWatcher): no scanning, a change is seen
 * the moment it is written. The kernel reports every file, so this keeps
 * what PollingSource would look at: *.php files under the roots outside
 * dependency and cache directories, and the single files named.
 */
final class InotifySource implements ChangeSource
{
    private const SKIP_DIRS = ['vendor', 'node_modules', 'storage', 'var', 'cache', 'tmp', 'log', 'logs'];

    private FileWatcher $watcher;

    /** @var list<string> what the FileWatcher watches; it reports these when the kernel dropped events */
    private array $watchedPaths;

    /**
     * @param list<string> $roots directories whose *.php files are watched, recursively
     * @param list<string> $files single files watched whatever their name (config, .env)
     * @throws \Rapier\Exception when inotify cannot watch them (use PollingSource then)
     */
    public function __construct(private readonly array $roots, private readonly array $files)
    {
        $paths = $roots;
        foreach ($files as $file) {
            // A file that does not exist yet (.env) is seen through its directory.
            $paths[] = is_file($file) ? $file : dirname($file);
        }
        $this->watchedPaths = array_values(array_unique($paths));
        $this->watcher = new FileWatcher($this->watchedPaths);
    }

    public function wait(float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $changed = array_values(array_filter(
                $this->watcher->wait(max(0.0, $deadline - microtime(true))),
                fn(string $path): bool => $this->watched($path),
            ));
            if ($changed !== []) {
                sort($changed);

                return $changed;
            }
        } while (microtime(true) < $deadline);

        return [];
    }

    private function watched(string $path): bool
    {
        // A watched path itself: after the kernel's queue overflowed, all FileWatcher can say.
        if (in_array($path, $this->files, true) || in_array($path, $this->watchedPaths, true)) {
            return true;
        }
        if (!str_ends_with($path, '.php')) {
            return false;
        }
        foreach ($this->roots as $root) {
            if (str_starts_with($path, $root . '/')) {
                $dirs = explode('/', substr(dirname($path), strlen($root)));

                return array_intersect($dirs, self::SKIP_DIRS) === [];
            }
        }

        return false;
    }
}
