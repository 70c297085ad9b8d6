<?php

/** @generate-class-entries */

namespace Rapier\Http {
    /**
     * A WebSocket connection (RFC 6455), from Response::upgrade(). Any
     * coroutine may send; one at a time receives. Pings are answered and
     * the close handshake is done while receiving.
     *
     * @strict-properties
     * @not-serializable
     */
    final class WebSocket
    {
        private function __construct() {}

        /**
         * Waits for the next message. Returns null once the connection has
         * ended (the client closed it, broke the protocol, went away, or
         * the server is stopping): closeCode() says how.
         *
         * @throws \ValueError if $timeout is NaN
         * @throws \Rapier\TimeoutException when $timeout seconds pass without a message
         * @throws \Rapier\Exception if another coroutine is receiving
         * @throws \Rapier\CanceledException if the coroutine is canceled while waiting
         */
        public function recv(float $timeout = -1): ?WebSocketMessage {}

        /**
         * Sends a text message (valid UTF-8), or a binary one. Returns false
         * when the WebSocket is closing or closed, or the client has gone.
         *
         * @throws \ValueError if a text message is not valid UTF-8
         * @throws \Rapier\CanceledException if the coroutine is canceled while waiting for the client
         */
        public function send(string $data, bool $binary = false): bool {}

        /**
         * Sends a ping (at most 125 bytes); the client's pong is read by recv().
         *
         * @throws \ValueError if $data is longer than 125 bytes
         */
        public function ping(string $data = ""): bool {}

        /**
         * Starts the close handshake; recv() returns null when the client
         * answers (or after websocket_close_timeout). Returns false when
         * the WebSocket was closing or closed already.
         *
         * @throws \ValueError for a code an endpoint may not send, or a
         *     reason over 123 bytes or not UTF-8
         */
        public function close(int $code = 1000, string $reason = ""): bool {}

        /** Whether messages may still be sent and received: no close frame sent or received, the client connected. */
        public function isOpen(): bool {}

        /**
         * How the connection ended: the client's close code (1005 when its
         * close frame had none), the server's on a protocol error (1002,
         * 1007, 1009), 1006 when it ended without a close frame; null while
         * it has not.
         */
        public function closeCode(): ?int {}

        /** The reason that came with closeCode(), or "". */
        public function closeReason(): string {}
    }

    /**
     * A message WebSocket::recv() received.
     *
     * @strict-properties
     * @not-serializable
     */
    final class WebSocketMessage
    {
        public readonly string $data;
        /** A binary message (opcode 2); false for text, which is valid UTF-8. */
        public readonly bool $binary;

        private function __construct() {}
    }
}
