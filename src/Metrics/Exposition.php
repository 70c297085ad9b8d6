<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * The /metrics page: every worker's snapshot summed, plus what the
 * master's status document says about processes (docs/metrics.md lists
 * the metrics). Pure: it takes the snapshots and the status document and
 * returns text, so it is tested without a server.
 */
final class Exposition
{
    /**
     * @param array<int, array<string, mixed>> $snapshots live workers' snapshots by pid
     * @param Registry $retired counters of workers that have exited
     * @param array<string, mixed>|null $status the master's status document (null: single process, or unreachable)
     * @param array<string, array{rows: int, size: int}> $tables the config's shared tables, by name
     */
    public static function render(array $snapshots, Registry $retired, ?array $status, array $tables = []): string
    {
        $total = new Registry();
        $total->add($retired);
        foreach ($snapshots as $snapshot) {
            $total->add(Registry::fromArray((array) ($snapshot['registry'] ?? [])));
        }
        $out = new TextFormat();
        self::requests($out, $total);
        $inFlight = 0;
        $connections = 0;
        $websockets = 0;
        foreach ($snapshots as $snapshot) {
            $inFlight += (int) ($snapshot['in_flight'] ?? 0);
            $connections += (int) ($snapshot['connections'] ?? 0);
            $websockets += (int) ($snapshot['websockets'] ?? 0);
        }
        $out->family('rapier_http_requests_in_flight', 'gauge', 'Requests being handled now (the scrape excluded).')
            ->sample('rapier_http_requests_in_flight', [], $inFlight);
        $out->family('rapier_http_connections', 'gauge', 'Open client connections.')
            ->sample('rapier_http_connections', [], $connections);
        $out->family('rapier_http_websockets', 'gauge', 'Open WebSocket connections.')
            ->sample('rapier_http_websockets', [], $websockets);
        $out->family('rapier_http_static_compress_cache_bytes', 'gauge', 'Bytes of compressed static files the workers\' caches hold (static_compress_cache each).')
            ->sample('rapier_http_static_compress_cache_bytes', [], array_sum(array_map(static fn (array $s): int => (int) ($s['static_compress_cached_bytes'] ?? 0), $snapshots)));
        $out->family('rapier_coroutines', 'gauge', 'Live coroutines, all workers.')
            ->sample('rapier_coroutines', [], array_sum(array_map(static fn (array $s): int => (int) ($s['coroutines'] ?? 0), $snapshots)));
        $workers = self::byWorker($snapshots);
        $out->family('rapier_event_loop_lag_seconds', 'gauge', 'How late a 100 ms timer fired at worst during the last second, per worker.');
        foreach ($workers as $index => $s) {
            $out->sample('rapier_event_loop_lag_seconds', ['worker' => (string) $index], (float) ($s['lag'] ?? 0.0));
        }
        $out->family('rapier_http_concurrency_limit', 'gauge', 'Handlers allowed at once now, per worker: the concurrency option, or where latency_target has taken it; 0: no limit.');
        foreach ($workers as $index => $s) {
            $out->sample('rapier_http_concurrency_limit', ['worker' => (string) $index], (int) ($s['concurrency_limit'] ?? 0));
        }
        self::processes($out, $workers, $status);
        self::tables($out, $tables);

        return $out->text();
    }

    private static function requests(TextFormat $out, Registry $total): void
    {
        $out->family('rapier_http_requests_total', 'counter', 'HTTP requests answered by the application, by method, route and status.');
        foreach ($total->requests() as [$method, $route, $status, $count]) {
            $out->sample('rapier_http_requests_total', ['method' => $method, 'route' => $route, 'status' => $status], $count);
        }
        $out->family('rapier_http_request_duration_seconds', 'histogram', 'Time from the request reaching the application to its handler returning, by route.');
        foreach ($total->durations() as $route => $h) {
            $out->histogram('rapier_http_request_duration_seconds', ['route' => (string) $route], Registry::BUCKETS, $h['buckets'], $h['sum']);
        }
        $counters = [
            'rapier_http_requests_shed_total' => ['shed', 'Requests the server answered 503 itself after waiting queue_timeout for a handler.'],
            'rapier_http_requests_abandoned_total' => ['abandoned', 'Queued requests dropped because their client closed the connection before a handler was free.'],
            'rapier_http_requests_slow_total' => ['slow', 'Requests whose handler ran past slowlog_timeout; each is in the log with its backtrace.'],
            'rapier_http_tls_handshake_failures_total' => ['tls_handshake_failures', 'TLS handshakes that failed, plain HTTP to the HTTPS port included (answered 400); the application never saw them.'],
        ];
        foreach ($counters as $name => [$key, $help]) {
            $out->family($name, 'counter', $help)->sample($name, [], $total->serverCounter($key));
        }
        $out->family('rapier_http_static_compressed_total', 'counter', 'Static files and sendfile() answers compressed on the fly, by whether the copy came from the worker\'s cache (hit) or was made (miss).')
            ->sample('rapier_http_static_compressed_total', ['cache' => 'hit'], $total->serverCounter('static_compress_hits'))
            ->sample('rapier_http_static_compressed_total', ['cache' => 'miss'], $total->serverCounter('static_compress_misses'));
        $out->family('rapier_http_unread_bodies_total', 'counter', 'Request bodies a handler left unread: read and dropped (dropped), the HTTP/1.1 connection closed for them (closed), or the HTTP/2 stream reset (reset).')
            ->sample('rapier_http_unread_bodies_total', ['outcome' => 'dropped'], $total->serverCounter('unread_bodies_dropped'))
            ->sample('rapier_http_unread_bodies_total', ['outcome' => 'closed'], $total->serverCounter('unread_bodies_closed'))
            ->sample('rapier_http_unread_bodies_total', ['outcome' => 'reset'], $total->serverCounter('unread_bodies_reset'));
    }

    /**
     * @param array<int, array<string, mixed>> $workers snapshots by worker index
     * @param array<string, mixed>|null $status
     */
    private static function processes(TextFormat $out, array $workers, ?array $status): void
    {
        $out->family('rapier_worker_memory_bytes', 'gauge', 'PHP memory in use (memory_get_usage), per request worker.');
        foreach ($workers as $index => $s) {
            $out->sample('rapier_worker_memory_bytes', ['worker' => (string) $index], (int) ($s['memory'] ?? 0));
        }
        // The master reads RSS from /proc when asked; without a master the worker read its own.
        $rss = array_map(static fn (array $w): int => (int) ($w['rss'] ?? 0), self::newestByIndex(self::requestWorkers($status)));
        $out->family('rapier_worker_rss_bytes', 'gauge', 'Resident set size as the kernel reports it, per request worker.');
        foreach ($workers as $index => $s) {
            $out->sample('rapier_worker_rss_bytes', ['worker' => (string) $index], $rss[$index] ?? (int) ($s['rss'] ?? 0));
        }
        if ($status === null) {
            return;
        }
        // Every process of the server sends and takes messages, task workers and user processes too: the master's totals count them all.
        $out->family('rapier_messages_sent_total', 'counter', 'Messages between workers sent (sendMessage(), one per worker a broadcastMessage() reached), by every process of the server.')
            ->sample('rapier_messages_sent_total', [], (int) ($status['totals']['messages_sent'] ?? 0));
        $out->family('rapier_messages_received_total', 'counter', 'Messages between workers whose handler started, in every worker.')
            ->sample('rapier_messages_received_total', [], (int) ($status['totals']['messages_received'] ?? 0));
        $counters = [
            'rapier_worker_restarts_total' => ['restarts', 'Worker, task worker and user processes that ended unexpectedly and were restarted.'],
            'rapier_worker_recycles_total' => ['recycles', 'Workers replaced after max_requests or max_memory.'],
            'rapier_reload_failures_total' => ['reload_failures', 'Reloads abandoned because the new workers did not start.'],
        ];
        foreach ($counters as $name => [$key, $help]) {
            $out->family($name, 'counter', $help)->sample($name, [], (int) ($status[$key] ?? 0));
        }
        $out->family('rapier_uptime_seconds', 'gauge', 'Seconds since the master started.')
            ->sample('rapier_uptime_seconds', [], (float) ($status['master']['uptime'] ?? 0.0));
    }

    /** @param array<string, array{rows: int, size: int}> $tables */
    private static function tables(TextFormat $out, array $tables): void
    {
        if ($tables === []) {
            return;
        }
        $out->family('rapier_table_rows', 'gauge', 'Rows in use in a shared table (the config\'s tables).');
        foreach ($tables as $name => $table) {
            $out->sample('rapier_table_rows', ['table' => $name], $table['rows']);
        }
        $out->family('rapier_table_size_rows', 'gauge', 'Rows a shared table can hold; a new key past them is refused.');
        foreach ($tables as $name => $table) {
            $out->sample('rapier_table_size_rows', ['table' => $name], $table['size']);
        }
    }

    /**
     * @param array<string, mixed>|null $status
     * @return list<array<string, mixed>> the request workers of the status document
     */
    private static function requestWorkers(?array $status): array
    {
        return array_values(array_filter((array) ($status['workers'] ?? []),
            static fn (mixed $w): bool => is_array($w) && ($w['role'] ?? '') === 'worker'));
    }

    /**
     * One entry per worker index: during a reload or a recycle an index has
     * an old process draining beside its successor; the newest speaks for it.
     *
     * @param list<array<string, mixed>> $workers
     * @return array<int, array<string, mixed>>
     */
    private static function newestByIndex(array $workers): array
    {
        $by = [];
        foreach ($workers as $w) {
            $index = (int) ($w['index'] ?? 0);
            if (!isset($by[$index]) || [$w['generation'] ?? 0, $w['started_at'] ?? 0] > [$by[$index]['generation'] ?? 0, $by[$index]['started_at'] ?? 0]) {
                $by[$index] = $w;
            }
        }
        ksort($by);

        return $by;
    }

    /**
     * @param array<int, array<string, mixed>> $snapshots
     * @return array<int, array<string, mixed>>
     */
    private static function byWorker(array $snapshots): array
    {
        $by = [];
        foreach ($snapshots as $s) {
            $index = (int) ($s['worker'] ?? 0);
            if (!isset($by[$index]) || ($s['started'] ?? 0) > ($by[$index]['started'] ?? 0)) {
                $by[$index] = $s;
            }
        }
        ksort($by);

        return $by;
    }
}
