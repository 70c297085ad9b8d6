<?php

declare(strict_types=1);

namespace Rapier\Cli\Watch;

/**
 * Finds changes by scanning the watched trees every $interval seconds and
 * comparing each file's inode, size and mtime with the last scan. mtime
 * has one-second resolution here, so a file modified within the last
 * RECENT_SECONDS is also compared by a hash of its content: two edits in
 * the same second that keep the size are still seen.
 */
final class PollingSource implements ChangeSource
{
    /** Directories never descended into: dependencies, caches and data the app writes itself. */
    private const SKIP_DIRS = ['vendor', 'node_modules', 'storage', 'var', 'cache', 'tmp', 'log', 'logs'];
    /** Bounds a scan started from a too-wide root (an app file directly in /tmp or $HOME). */
    private const MAX_DEPTH = 6;
    private const MAX_FILES = 20000;
    private const RECENT_SECONDS = 2;

    /** @var array<string, array{string, ?string}> */
    private array $snapshot;
    private bool $warned = false;

    /**
     * @param list<string> $roots directories whose *.php files are watched, recursively
     * @param list<string> $files single files watched whatever their name (config, .env)
     * @param resource $log where a too-wide tree is reported
     */
    public function __construct(
        private readonly array $roots,
        private readonly array $files,
        private readonly float $interval = 0.5,
        private $log = STDERR,
    ) {
        $this->snapshot = $this->scan();
    }

    public function wait(float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            usleep((int) (1e6 * max(0.0, min($this->interval, $deadline - microtime(true)))));
            $now = $this->scan();
            $changed = $this->diff($this->snapshot, $now);
            $this->snapshot = $now;
            if ($changed !== []) {
                sort($changed);

                return $changed;
            }
        } while (microtime(true) < $deadline);

        return [];
    }

    /**
     * @param array<string, array{string, ?string}> $old
     * @param array<string, array{string, ?string}> $new
     * @return list<string>
     */
    private function diff(array $old, array $new): array
    {
        $changed = array_keys(array_diff_key($old, $new) + array_diff_key($new, $old));
        foreach (array_intersect_key($new, $old) as $path => [$stat, $hash]) {
            [$oldStat, $oldHash] = $old[$path];
            // A hash is taken only while the file is recent: compare it only when both scans have one.
            if ($stat !== $oldStat || ($hash !== null && $oldHash !== null && $hash !== $oldHash)) {
                $changed[] = $path;
            }
        }

        return $changed;
    }

    /** @return array<string, array{string, ?string}> path => [inode:size:mtime, content hash while recent] */
    private function scan(): array
    {
        clearstatcache();
        $found = [];
        foreach ($this->files as $file) {
            $this->add($found, $file);
        }
        foreach ($this->roots as $root) {
            $this->scanDir($found, $root, 0);
        }

        return $found;
    }

    /** @param array<string, array{string, ?string}> $found */
    private function scanDir(array &$found, string $dir, int $depth): void
    {
        $entries = @scandir($dir);
        if ($entries === false) {
            return;
        }
        foreach ($entries as $name) {
            if ($name[0] === '.' || count($found) >= self::MAX_FILES) {
                continue;
            }
            $path = "$dir/$name";
            if (str_ends_with($name, '.php')) {
                $this->add($found, $path);
            } elseif (is_dir($path) && !is_link($path) && !in_array($name, self::SKIP_DIRS, true)
                    && $depth + 1 < self::MAX_DEPTH) {
                $this->scanDir($found, $path, $depth + 1);
            }
        }
        if (count($found) >= self::MAX_FILES && !$this->warned) {
            $this->warned = true;
            fwrite($this->log, sprintf("rapier: --watch stops at %d files under %s; put the app in a directory of its own\n",
                self::MAX_FILES, $dir));
        }
    }

    /** @param array<string, array{string, ?string}> $found */
    private function add(array &$found, string $path): void
    {
        $stat = @stat($path);
        if ($stat === false || ($stat['mode'] & 0170000) !== 0100000) {
            return;
        }
        $recent = $stat['mtime'] >= time() - self::RECENT_SECONDS;
        $found[$path] = ["{$stat['ino']}:{$stat['size']}:{$stat['mtime']}", $recent ? (string) hash_file('xxh3', $path) : null];
    }
}
