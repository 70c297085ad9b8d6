<?php

declare(strict_types=1);

namespace Rapier\Cli\Watch;

/**
 * Where `rapier serve --watch` learns that the app's files changed. Today
 * PollingSource; an inotify source on the extension's loop can replace it
 * without the Watcher noticing.
 */
interface ChangeSource
{
    /**
     * Blocks until watched files changed (created, modified, deleted) or
     * $timeout seconds passed.
     *
     * @return list<string> the changed paths, [] when the time ran out
     */
    public function wait(float $timeout): array;
}
