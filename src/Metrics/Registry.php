<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * One worker's request metrics, in memory: a counter of requests by
 * (method, route, status), a latency histogram by route, and the counters
 * the server keeps itself (SERVER_COUNTERS). toArray() and
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

    /**
     * Counters the server keeps itself (Rapier\Http\Server::stats()), by
     * their stats() key, each taken whole when the snapshot is: requests
     * answered 503 after queue_timeout (shed) and queued requests whose
     * client left first (abandoned), neither seen by the application;
     * requests past slowlog_timeout (slow); failed TLS handshakes; static
     * files compressed on the fly from the cache (hits) or anew (misses);
     * bodies handlers left unread: dropped, closing their HTTP/1.1 connection,
     * or resetting their HTTP/2 stream.
     */
    public const SERVER_COUNTERS = ['shed', 'abandoned', 'slow', 'tls_handshake_failures', 'static_compress_hits',
        'static_compress_misses', 'unread_bodies_dropped', 'unread_bodies_closed',
        'unread_bodies_reset'];

    /** @var array<string, int> by a key of SERVER_COUNTERS */
    private array $serverCounters = [];

    public function observe(string $method, string $route, string $status, float $seconds): void
    {
        $method = in_array($method, self::METHODS, true) ? $method : 'other';
        $this->count($method, $route, $status, 1);
        $histogram = &$this->histogram($route);
        $histogram['buckets'][self::bucketOf($seconds)]++;
        $histogram['sum'] += $seconds;
        $histogram['count']++;
    }

    /**
     * The server's own counts, taken from its stats() when the snapshot is;
     * keys other than SERVER_COUNTERS' are ignored.
     *
     * @param array<string, mixed> $stats
     */
    public function setServerCounters(array $stats): void
    {
        foreach (self::SERVER_COUNTERS as $key) {
            $this->serverCounters[$key] = (int) ($stats[$key] ?? 0);
        }
    }

    /** One of SERVER_COUNTERS. */
    public function serverCounter(string $key): int
    {
        return $this->serverCounters[$key] ?? 0;
    }

    public function add(self $other): void
    {
        foreach ($other->serverCounters as $key => $count) {
            $this->serverCounters[$key] = ($this->serverCounters[$key] ?? 0) + $count;
        }
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

    /** @return array<string, mixed> requests, durations, and each of SERVER_COUNTERS under its key */
    public function toArray(): array
    {
        return ['requests' => array_values($this->requests), 'durations' => $this->durations] + $this->serverCounters;
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
        foreach (self::SERVER_COUNTERS as $key) {
            if (is_int($data[$key] ?? null)) {
                $registry->serverCounters[$key] = $data[$key];
            }
        }
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
