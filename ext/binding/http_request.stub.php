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

        /** The raw request body. */
        public function body(): string {}

        /** @return array<string, mixed> a $_SERVER-compatible array */
        public function server(): array {}
    }
}
