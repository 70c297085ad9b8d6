<?php

/** @generate-class-entries */

namespace Rapier {
    /**
     * A FIFO of values between coroutines. With capacity 0 a push waits until
     * a popper takes the value (a rendezvous); otherwise pushes wait only while
     * the buffer is full and pops only while it is empty. Waiting pushers and
     * poppers are served in arrival order.
     *
     * Operations that complete without waiting work anywhere, even outside
     * Rapier\run(); waiting needs a coroutine. A timeout in seconds: negative
     * (conventionally -1) waits forever, 0 never waits.
     *
     * @strict-properties
     * @not-serializable
     */
    final class Channel
    {
        /** @throws \ValueError if $capacity is negative or too large */
        public function __construct(int $capacity = 0) {}

        /**
         * Sends $value, waiting while the channel is full (capacity 0: until a
         * popper takes it). Returns false if the channel is or gets closed, or
         * on timeout; the value was then not delivered.
         *
         * @throws \ValueError if $timeout is NaN
         * @throws \Rapier\Exception if it would have to wait outside a coroutine
         * @throws \Rapier\CanceledException if the coroutine is canceled while waiting
         */
        public function push(mixed $value, float $timeout = -1): bool {}

        /**
         * Receives the oldest value, waiting while the channel is empty.
         * Returns false on timeout, or once the channel is closed and drained.
         *
         * @throws \ValueError if $timeout is NaN
         * @throws \Rapier\Exception if it would have to wait outside a coroutine
         * @throws \Rapier\CanceledException if the coroutine is canceled while waiting
         */
        public function pop(float $timeout = -1): mixed {}

        /**
         * Closes the channel: waiting pushers return false, waiting poppers
         * return false, buffered values can still be popped. Closing twice
         * does nothing.
         */
        public function close(): void {}

        /** Number of buffered values (waiting pushers are not counted). */
        public function length(): int {}

        public function capacity(): int {}

        public function isClosed(): bool {}
    }
}
