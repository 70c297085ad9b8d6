<?php

/** @generate-class-entries */

namespace Rapier {
    /** Timers on the event loop; every call of a callback runs in a new coroutine. */
    final class Timer
    {
        private function __construct() {}

        /**
         * Calls $fn(...$args) once after $seconds. Returns the timer id.
         *
         * @throws \ValueError when $seconds is negative or NaN
         * @throws \Rapier\Exception outside Rapier\run()
         */
        public static function after(float $seconds, callable $fn, mixed ...$args): int {}

        /**
         * Calls $fn(...$args) every $seconds until Timer::clear(). Returns the timer id.
         *
         * @throws \ValueError when $seconds is not greater than 0
         * @throws \Rapier\Exception outside Rapier\run()
         */
        public static function tick(float $seconds, callable $fn, mixed ...$args): int {}

        /** Stops a timer; false when no such timer is pending. */
        public static function clear(int $id): bool {}
    }
}
