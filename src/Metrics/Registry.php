<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * One worker's request metrics, in memory: a counter of requests by
 * (method, route, status), a latency histogram by route, the requests the
 * server refused itself after queue_timeout (shed), the queued requests
 * whose client left before they ran (abandoned), the requests whose
 * handler ran past slowlog_timeout (slow), and the TLS handshakes that
 * failed (tlsHandshakeFailures). toArray() and
 * fromArray() are the snapshot format the workers exchange through files
 * (Snapshots); add() sums two registries, which is how the scraping worker
 * totals every worker's.
 */
final class Registry
{
    /** Upper bounds in seconds: the Prometheus client libraries' defaults. */
    public const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0];

    /** Methods labelled as such; any other (the parser lets extension methods through) is `other`. */
    private const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'];

    /** @var array<string, array{0: string, 1: string, 2: string, 3: int}> "method route status" => [method, route, status, count] */
    private array $requests = [];

    /**
     * Per route: counts per bucket (not cumulative; the last is above the
     * highest bound), the sum of the durations and their count.
     *
     * @var array<string, array{buckets: list<int>, sum: float, count: int}>
     */
    private array $durations = [];

    /** Requests answered 503 by the server after waiting queue_timeout, never seen by the application. */
    private int $shed = 0;

    /** Queued requests whose client closed its connection first, never seen by the application. */
    private int $abandoned = 0;

    /** Requests whose handler ran past slowlog_timeout (logged by the slow request log). */
    private int $slow = 0;

    /** TLS handshakes that failed (plain HTTP to the HTTPS port included), never seen by the application. */
    private int $tlsHandshakeFailures = 0;

    public function observe(string $method, string $route, string $status, float $seconds): void
    {
        $method = in_array($method, self::METHODS, true) ? $method : 'other';
        $this->count($method, $route, $status, 1);
        $histogram = &$this->histogram($route);
        $histogram['buckets'][self::bucketOf($seconds)]++;
        $histogram['sum'] += $seconds;
        $histogram['count']++;
    }

    /** The server's own count (Rapier\Http\Server::stats()['shed']), taken when the snapshot is. */
    public function setShed(int $shed): void
    {
        $this->shed = $shed;
    }

    public function shed(): int
    {
        return $this->shed;
    }

    /** The server's own count (Rapier\Http\Server::stats()['abandoned']), taken when the snapshot is. */
    public function setAbandoned(int $abandoned): void
    {
        $this->abandoned = $abandoned;
    }

    public function abandoned(): int
    {
        return $this->abandoned;
    }

    /** The server's own count (Rapier\Http\Server::stats()['slow']), taken when the snapshot is. */
    public function setSlow(int $slow): void
    {
        $this->slow = $slow;
    }

    public function slow(): int
    {
        return $this->slow;
    }

    /** The server's own count (Rapier\Http\Server::stats()['tls_handshake_failures']), taken when the snapshot is. */
    public function setTlsHandshakeFailures(int $failures): void
    {
        $this->tlsHandshakeFailures = $failures;
    }

    public function tlsHandshakeFailures(): int
    {
        return $this->tlsHandshakeFailures;
    }

    public function add(self $other): void
    {
        $this->shed += $other->shed;
        $this->abandoned += $other->abandoned;
        $this->slow += $other->slow;
        $this->tlsHandshakeFailures += $other->tlsHandshakeFailures;
        foreach ($other->requests as [$method, $route, $status, $count]) {
            $this->count($method, $route, $status, $count);
        }
        foreach ($other->durations as $route => $theirs) {
            $histogram = &$this->histogram((string) $route);
            foreach ($theirs['buckets'] as $i => $n) {
                $histogram['buckets'][$i] += $n;
            }
            $histogram['sum'] += $theirs['sum'];
            $histogram['count'] += $theirs['count'];
            unset($histogram);
        }
    }

    /** @return list<array{0: string, 1: string, 2: string, 3: int}> [method, route, status, count], sorted */
    public function requests(): array
    {
        $requests = $this->requests;
        ksort($requests, SORT_STRING);

        return array_values($requests);
    }

    /** @return array<string, array{buckets: list<int>, sum: float, count: int}> by route, sorted */
    public function durations(): array
    {
        $durations = $this->durations;
        ksort($durations, SORT_STRING);

        return $durations;
    }

    /** @return array{requests: list<array{0: string, 1: string, 2: string, 3: int}>, durations: array<string, mixed>, shed: int, abandoned: int, slow: int, tls_handshake_failures: int} */
    public function toArray(): array
    {
        return ['requests' => array_values($this->requests), 'durations' => $this->durations, 'shed' => $this->shed,
            'abandoned' => $this->abandoned, 'slow' => $this->slow, 'tls_handshake_failures' => $this->tlsHandshakeFailures];
    }

    /**
     * A registry from toArray()'s shape; what does not fit (a file from
     * another version, a torn value) is skipped, never fatal to a scrape.
     *
     * @param array<mixed> $data
     */
    public static function fromArray(array $data): self
    {
        $registry = new self();
        $registry->shed = is_int($data['shed'] ?? null) ? $data['shed'] : 0;
        $registry->abandoned = is_int($data['abandoned'] ?? null) ? $data['abandoned'] : 0;
        $registry->slow = is_int($data['slow'] ?? null) ? $data['slow'] : 0;
        $registry->tlsHandshakeFailures = is_int($data['tls_handshake_failures'] ?? null) ? $data['tls_handshake_failures'] : 0;
        foreach (is_array($data['requests'] ?? null) ? $data['requests'] : [] as $row) {
            if (is_array($row) && count($row) === 4 && is_int($row[3])) {
                $registry->count((string) $row[0], (string) $row[1], (string) $row[2], $row[3]);
            }
        }
        $buckets = count(self::BUCKETS) + 1;
        foreach (is_array($data['durations'] ?? null) ? $data['durations'] : [] as $route => $h) {
            if (is_array($h) && is_array($h['buckets'] ?? null) && count($h['buckets']) === $buckets
                    && is_numeric($h['sum'] ?? null) && is_int($h['count'] ?? null)) {
                $registry->durations[(string) $route] = [
                    'buckets' => array_map('intval', array_values($h['buckets'])),
                    'sum' => (float) $h['sum'],
                    'count' => $h['count'],
                ];
            }
        }

        return $registry;
    }

    private function count(string $method, string $route, string $status, int $n): void
    {
        $key = "$method $route $status";
        if (isset($this->requests[$key])) {
            $this->requests[$key][3] += $n;
        } else {
            $this->requests[$key] = [$method, $route, $status, $n];
        }
    }

    /** @return array{buckets: list<int>, sum: float, count: int} */
    private function &histogram(string $route): array
    {
        $this->durations[$route] ??= ['buckets' => array_fill(0, count(self::BUCKETS) + 1, 0), 'sum' => 0.0, 'count' => 0];

        return $this->durations[$route];
    }

    private static function bucketOf(float $seconds): int
    {
        foreach (self::BUCKETS as $i => $bound) {
            if ($seconds <= $bound) {
                return $i;
            }
        }

        return count(self::BUCKETS);
    }
}
