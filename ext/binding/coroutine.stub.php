<?php

/** @generate-class-entries */

namespace Rapier {
    /** Static API of the running coroutine and the scheduler. */
    final class Coroutine
    {
        private function __construct() {}

        /** Id of the running coroutine, or -1 when the caller is not a Rapier coroutine. */
        public static function id(): int {}

        /**
         * Suspends the running coroutine for $seconds (sub-millisecond resolution).
         *
         * @throws \ValueError when $seconds is negative or NaN
         * @throws \Rapier\Exception outside a coroutine
         * @throws \Rapier\CanceledException when canceled while sleeping
         */
        public static function sleep(float $seconds): void {}

        /**
         * Suspends the running coroutine until one of $signals (a signal number or a list of them)
         * arrives, and returns its number; false when $timeout seconds passed first (-1: none).
         * While it waits, Rapier blocks those signals and reads them from the loop.
         *
         * @throws \ValueError for an empty list, a number out of range, or a signal that cannot be awaited
         * @throws \TypeError for a list element that is not an int
         * @throws \Rapier\Exception outside a coroutine, or for a signal the HTTP server owns in this process
         * @throws \Rapier\CanceledException when canceled while waiting
         */
        public static function waitSignal(int|array $signals, float $timeout = -1): int|false {}

        /**
         * Runs $fn when the running coroutine ends, last registered first, even after an exception.
         *
         * @throws \Rapier\Exception outside a coroutine
         */
        public static function defer(callable $fn): void {}

        /** Number of live coroutines (0 outside Rapier\run()). */
        public static function count(): int {}

        /** @return array<int, int> ids of the live coroutines */
        public static function list(): array {}

        /** Whether a coroutine with this id is alive. */
        public static function exists(int $id): bool {}

        /**
         * Cancels a waiting coroutine: its wait throws Rapier\CanceledException.
         * One whose wait timed out but that has not run since still counts as
         * waiting. One that go() has queued but that has not started starts
         * as usual, and its first wait throws CanceledException at once.
         * Returns false when no such coroutine waits or waits to start (or
         * it was canceled before it started already), or its wait was
         * already answered (it keeps what it received).
         */
        public static function cancel(int $id): bool {}

        /**
         * Storage that lives exactly as long as the coroutine ($id, or the running one).
         *
         * @throws \Rapier\Exception outside a coroutine, or for an unknown id
         */
        public static function context(?int $id = null): \ArrayObject {}

        /**
         * The PHP stack of coroutine $id (or the running one), as
         * debug_backtrace() would give it inside: from the call it waits in
         * down to its callable. Empty for one that has not started yet.
         *
         * @throws \Rapier\Exception outside a coroutine, or for an unknown id
         */
        public static function backtrace(?int $id = null, int $options = DEBUG_BACKTRACE_PROVIDE_OBJECT, int $limit = 0): array {}

        /**
         * Handler for exceptions no coroutine caught: fn(\Throwable $e, int $coroutineId).
         * null restores the default, a report on stderr.
         */
        public static function setExceptionHandler(?callable $handler): void {}

        /** Entry point of Rapier's own fibers. */
        private static function fiberMain(): void {}
    }
}
