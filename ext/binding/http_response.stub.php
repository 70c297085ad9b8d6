<?php

/** @generate-class-entries */

namespace Rapier\Http {
    /** The response to the current request. */
    final class Response
    {
        private function __construct() {}

        /**
         * @throws \ValueError for a status outside 200..599 or a reason with control characters
         * @throws \Rapier\Exception once headers were sent
         */
        public function status(int $status, string $reason = ""): static {}

        /**
         * Adds a header; repeat it to send it several times (Set-Cookie).
         *
         * @throws \ValueError when the name is not a token or the value holds CR, LF or NUL
         * @throws \Rapier\Exception once headers were sent
         */
        public function header(string $name, string $value): static {}

        /**
         * Adds a trailer field, sent after the body: an HTTP/2 trailing
         * HEADERS frame (gRPC's grpc-status), or on HTTP/1.1 the trailer
         * section of a chunked body (a body that would have had a
         * Content-Length is sent chunked instead). May be called until the
         * response ends, after write() too. HTTP/1.0, HEAD and responses
         * without a body (204, 304) have no place for trailers: they are
         * dropped there.
         *
         * @throws \ValueError when the name is not a token, is a field the
         *     client needs before the body (Content-Length,
         *     Transfer-Encoding, Content-Type, Content-Encoding, Host,
         *     Set-Cookie, Trailer...), or the value holds CR, LF or NUL
         * @throws \Rapier\Exception once the response has ended
         */
        public function trailer(string $name, string $value): static {}

        /**
         * Sends a 103 Early Hints interim response with these fields
         * (['Link' => ['</app.css>; rel=preload; as=style', ...]]) before
         * the final response, so that the browser fetches what they name
         * while the handler works. Call it before the response starts, any
         * number of times; the final response's headers are its own. Does
         * not wait for the handler's status or headers.
         *
         * @return bool whether it went out: false with the server's
         *     early_hints option off (the default), for an HTTP/1.0 client
         *     (which cannot take one) and when the client has gone
         * @throws \ValueError for a name that is not a token or a value
         *     with CR, LF or NUL
         * @throws \TypeError for a value that is not a string or a list of strings
         * @throws \Rapier\Exception once headers were sent
         */
        public function earlyHints(array $headers): bool {}

        /** @throws \ValueError for an invalid name or attribute */
        public function cookie(
            string $name,
            string $value = "",
            int $expires = 0,
            string $path = "",
            string $domain = "",
            bool $secure = false,
            bool $httpOnly = false,
            string $sameSite = ""
        ): static {}

        /**
         * Sends headers (chunked) and a piece of the body.
         *
         * @throws \Rapier\Exception once the response has ended, or when the client has gone
         */
        public function write(string $data): bool {}

        /** Ends the response with a last piece of body. */
        public function end(string $body = ""): bool {}

        /** Ends the response with $data encoded as JSON. */
        public function json(mixed $data, int $status = 200, int $flags = 0): bool {}

        /** Ends the response with a file's contents, sent from the kernel with sendfile(). */
        public function sendfile(string $path, int $offset = 0, ?int $length = null): bool {}

        /** Ends the response with a redirect (302 by default). */
        public function redirect(string $location, int $status = 302): bool {}

        /** Whether headers may still be set and the body written: false once the client left. */
        public function isWritable(): bool {}

        /**
         * Runs the callback, in a coroutine of its own, if the response is
         * cut while the handler runs: its client left (closed, reset or
         * half-closed the connection; reset the HTTP/2 stream), or a write
         * failed or timed out. At once when that already happened; never
         * once the response ended whole. Wakes what the handler waits on:
         * close its channel, or Coroutine::cancel() it.
         *
         * @throws \Rapier\Exception once the handler has returned
         */
        public function onAbort(callable $callback): void {}

        /** Whether the status and headers are sent (or the response has ended): setting them now throws. */
        public function headersSent(): bool {}

        /** The status so far: 200 until status(), json(), redirect() or an error answer sets another. */
        public function statusCode(): int {}

        /**
         * Answers a WebSocket handshake with 101 Switching Protocols (with the
         * headers and cookies set so far) and returns the connection's
         * WebSocket; the handler goes on running with it, and its return
         * closes it. A request that is not a WebSocket handshake is answered
         * here (426, or 400 for a malformed one) and null is returned, as it
         * is when the server is stopping (503).
         *
         * @param string|null $protocol one of the subprotocols the client
         *     offered in Sec-WebSocket-Protocol, to accept it
         * @throws \ValueError if $protocol is not one the client offered
         * @throws \Rapier\Exception once headers were sent
         */
        public function upgrade(?string $protocol = null): ?WebSocket {}
    }
}
