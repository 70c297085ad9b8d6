<?php

/** @generate-class-entries */

namespace Rapier\Http {
    /** The request being handled. Properties are computed on first read. */
    final class Request
    {
        public readonly string $method;
        public readonly string $uri;
        public readonly string $path;
        /** @var array<int|string, mixed> */
        public readonly array $query;
        /** @var array<string, string> */
        public readonly array $headers;
        /** @var array<string, string> */
        public readonly array $cookies;
        /** @var array<int|string, mixed> */
        public readonly array $post;
        /** @var array<string, mixed> */
        public readonly array $files;
        public readonly string $remoteAddress;
        public readonly int $remotePort;

        private function __construct() {}

        /** A header by case-insensitive name; repeated headers are joined with ", ". */
        public function header(string $name): ?string {}

        /**
         * The raw request body. One spooled to a file (past body_buffer_size)
         * is read into memory on the first call: prefer bodyStream() or
         * saveBody() for those.
         */
        public function body(): string {}

        /** The body's length in bytes, whether it is in memory or in a file. */
        public function bodySize(): int {}

        /**
         * The temporary file holding a body spooled while it arrived, or null
         * when the body is in memory. Removed with the request: keep it with
         * saveBody().
         */
        public function bodyFile(): ?string {}

        /**
         * The body as a read-only stream, from its file without loading it.
         * @return resource
         */
        public function bodyStream() {}

        /**
         * Stores the body at $path: a spooled body's file is moved there
         * (renamed when on the same file system), one in memory written out.
         * @throws \Rapier\Exception when it cannot be written
         */
        public function saveBody(string $path): void {}

        /**
         * Waits for the rest of a body still arriving (request_buffering
         * off) and keeps it as a buffered body is kept: in memory up to
         * body_buffer_size, past it in a temporary file (bodyFile()). Then
         * every body method works as with request_buffering on. No effect on
         * a body that is whole.
         * @throws BodyException when the rest will not come (507: the file cannot be written)
         * @throws \Rapier\Exception when part of the body was read from a stream already
         */
        public function bufferBody(): void {}

        /**
         * This request's own max_body_size for a body still arriving
         * (request_buffering off), raised or lowered, for the bytes to come:
         * null for no limit, as for a stream of messages the handler bounds
         * one by one. Past it, reading throws BodyException (413); at once
         * when the bytes that came, or the Content-Length, already are.
         * No effect on a body that is whole.
         */
        public function setMaxBodySize(?int $bytes): void {}

        /**
         * This request's own body_timeout for a body still arriving: how long
         * each read may wait for the next bytes before it throws
         * BodyException (408); null to wait as long as it takes (the client
         * leaving or the server stopping still ends the wait). No effect on a
         * body that is whole.
         */
        public function setBodyTimeout(?float $seconds): void {}

        /** @return array<string, mixed> a $_SERVER-compatible array */
        public function server(): array {}
    }
}
