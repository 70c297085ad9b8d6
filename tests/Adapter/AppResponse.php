<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use JsonException;

/**
 * One answer of a test app: status, header lines in order, body; and the
 * interim (1xx) responses that came before it, each its status and lines.
 */
final class AppResponse
{
    /**
     * @param list<array{string, string}> $headers
     * @param list<array{int, list<array{string, string}>}> $interim
     */
    private function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
        public readonly array $interim = [],
    ) {
    }

    /** @param list<string> $head the raw header lines libcurl saw, of every response in turn */
    public static function fromCurl(int $status, array $head, string $body): self
    {
        $interim = [];
        $headers = [];
        $code = 0;
        foreach ($head as $line) {
            if (preg_match('~^HTTP/[\d.]+ (\d{3})~', $line, $m)) {
                if ($code >= 100 && $code < 200) {
                    $interim[] = [$code, $headers];
                }
                $code = (int) $m[1];
                $headers = [];
                continue;
            }
            $colon = strpos($line, ':');
            if ($colon !== false) {
                $headers[] = [strtolower(substr($line, 0, $colon)), trim(substr($line, $colon + 1))];
            }
        }

        return new self($status, $headers, $body, $interim);
    }

    public function header(string $name): ?string
    {
        $values = $this->headers($name);

        return $values === [] ? null : $values[0];
    }

    /** @return list<string> every value of a header, in order */
    public function headers(string $name): array
    {
        $values = [];
        foreach ($this->headers as [$header, $value]) {
            if ($header === strtolower($name)) {
                $values[] = $value;
            }
        }

        return $values;
    }

    /** @return array<string, string> name => value of each Set-Cookie (attributes left out) */
    public function cookies(): array
    {
        $cookies = [];
        foreach ($this->headers('set-cookie') as $line) {
            [$pair] = explode(';', $line, 2);
            [$name, $value] = explode('=', $pair, 2) + [1 => ''];
            $cookies[trim($name)] = urldecode(trim($value));
        }

        return $cookies;
    }

    /**
     * @return array<mixed>
     * @throws JsonException
     */
    public function json(): array
    {
        return json_decode($this->body, true, 512, JSON_THROW_ON_ERROR);
    }

    public function describe(): string
    {
        $head = '';
        foreach ($this->headers as [$name, $value]) {
            $head .= "$name: $value\n";
        }

        $before = '';
        foreach ($this->interim as [$status, $lines]) {
            $before .= "HTTP $status\n";
            foreach ($lines as [$name, $value]) {
                $before .= "$name: $value\n";
            }
            $before .= "\n";
        }

        return "{$before}HTTP $this->status\n$head\n" . substr($this->body, 0, 2000);
    }
}
