<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use RuntimeException;

/** A response as HttpClient read it. */
final class HttpResponse
{
    /** @param list<array{string, string}> $headers name (lower case) and value, in order */
    private function __construct(
        public readonly int $status,
        public readonly string $reason,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }

    public static function parse(string $raw, bool $head = false): self
    {
        $end = strpos($raw, "\r\n\r\n");
        if ($end === false || preg_match('#^HTTP/1\.[01] (\d{3}) ?([^\r]*)#', $raw, $m) !== 1) {
            throw new RuntimeException("Not an HTTP response:\n" . substr($raw, 0, 2000));
        }
        $headers = [];
        foreach (array_slice(explode("\r\n", substr($raw, 0, $end)), 1) as $line) {
            [$name, $value] = explode(':', $line, 2) + [1 => ''];
            $headers[] = [strtolower($name), trim($value)];
        }
        $body = substr($raw, $end + 4);
        $response = new self((int) $m[1], $m[2], $headers, $body);
        if (!$head && $response->header('transfer-encoding') === 'chunked') {
            $response = new self($response->status, $response->reason, $headers, self::dechunk($body));
        }

        return $response;
    }

    /** The first value of a header (name in any case), null when absent. */
    public function header(string $name): ?string
    {
        return $this->headers($name)[0] ?? null;
    }

    /** @return list<string> every value of a header, in order */
    public function headers(string $name): array
    {
        $name = strtolower($name);

        return array_values(array_map(static fn (array $h): string => $h[1],
            array_filter($this->headers, static fn (array $h): bool => $h[0] === $name)));
    }

    /** @return mixed the body decoded as JSON */
    public function json(): mixed
    {
        return json_decode($this->body, true, 512, JSON_THROW_ON_ERROR);
    }

    private static function dechunk(string $body): string
    {
        $out = '';
        while (($eol = strpos($body, "\r\n")) !== false) {
            $size = hexdec(trim(explode(';', substr($body, 0, $eol))[0]));
            if ($size === 0) {
                return $out;
            }
            $out .= substr($body, $eol + 2, (int) $size);
            $body = substr($body, $eol + 2 + (int) $size + 2);
        }
        throw new RuntimeException('Truncated chunked body');
    }
}
