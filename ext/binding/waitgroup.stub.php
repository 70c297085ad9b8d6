<?php

/** @generate-class-entries */

namespace Rapier {
    /**
     * Waits for a group of coroutines: add() before starting each task,
     * done() when one finishes, wait() until all have.
     *
     * @strict-properties
     * @not-serializable
     */
    final class WaitGroup
    {
        /**
         * Adds $n tasks to the counter. 0 does nothing (convenient for
         * add(count($jobs)) with no jobs).
         *
         * @throws \ValueError if $n is negative (use done())
         * @throws \Rapier\Exception if the counter would overflow
         */
        public function add(int $n = 1): void {}

        /**
         * Marks one task finished; the counter reaching 0 wakes every waiter.
         *
         * @throws \Rapier\Exception if called more times than add() counted
         */
        public function done(): void {}

        /**
         * Waits until the counter is 0. Returns false on timeout. A timeout
         * in seconds: negative (conventionally -1) waits forever, 0 only checks.
         *
         * @throws \ValueError if $timeout is NaN
         * @throws \Rapier\Exception if it would have to wait outside a coroutine
         * @throws \Rapier\CanceledException if the coroutine is canceled while waiting
         */
        public function wait(float $timeout = -1): bool {}
    }
}
