<?php

/** @generate-class-entries */

namespace Rapier {
    /**
     * Changes to files and directory trees, from inotify: what watch mode
     * uses to reload a server when the application's files change.
     *
     * @strict-properties
     * @not-serializable
     */
    final class FileWatcher
    {
        /**
         * Watches each path: a file, or a directory and every directory below
         * it (including ones created later; names starting with "." are skipped).
         *
         * @param string[] $paths
         * @throws \ValueError if $paths is empty or holds something other than strings
         * @throws \Rapier\Exception when a path cannot be watched (missing, or the inotify limits)
         */
        public function __construct(array $paths) {}

        /**
         * Waits until something changes and returns the changed paths (each
         * once). Suspends only the calling coroutine; outside one it blocks.
         * An empty array means the timeout passed first. When the kernel dropped
         * events (its queue, fs.inotify.max_queued_events, overflowed), the
         * paths given to the constructor are returned instead: something
         * under them changed.
         *
         * @throws \Rapier\Exception once closed, or if another coroutine already waits
         * @throws \Rapier\CanceledException if the coroutine is canceled while waiting
         */
        public function wait(float $timeout = -1): array {}

        /** Number of files and directories watched. */
        public function count(): int {}

        public function close(): void {}
    }
}
