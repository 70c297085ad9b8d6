<?php

declare(strict_types=1);

namespace Rapier\Cli\Watch;

/**
 * Where `rapier serve --watch` learns that the app's files changed:
 * InotifySource, or PollingSource where inotify cannot watch the tree.
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
