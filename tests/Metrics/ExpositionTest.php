<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use PHPUnit\Framework\TestCase;
use Rapier\Metrics\Exposition;
use Rapier\Metrics\Registry;
use Rapier\Metrics\Snapshots;
use Rapier\Tests\Support\Cli;

/** Aggregation across workers, without a server: snapshots and a status document in, text out. */
final class ExpositionTest extends TestCase
{
    public function testSumsWorkersRetiredCountersAndStatus(): void
    {
        $w0 = new Registry();
        $w0->observe('GET', '/a', '200', 0.001);
        $w1 = new Registry();
        $w1->observe('GET', '/a', '200', 0.3);
        $w1->observe('GET', '/b', '500', 0.002);
        $retired = new Registry();
        $retired->observe('GET', '/a', '200', 20.0);
        $w0->setServerCounters(['abandoned' => 1, 'tls_handshake_failures' => 4, 'static_compress_hits' => 10,
            'unread_bodies_dropped' => 3, 'unread_bodies_closed' => 1, 'requests' => 99]);
        $w1->setServerCounters(['shed' => 5, 'slow' => 2, 'tls_handshake_failures' => 1, 'static_compress_hits' => 5,
            'static_compress_misses' => 2, 'unread_bodies_closed' => 1]);
        $retired->setServerCounters(['shed' => 2, 'abandoned' => 3, 'slow' => 1, 'tls_handshake_failures' => 6,
            'static_compress_misses' => 1, 'unread_bodies_dropped' => 4, 'unread_bodies_reset' => 5]);
        $status = [
            'master' => ['pid' => 1, 'uptime' => 42.5], 'restarts' => 2, 'recycles' => 3, 'reload_failures' => 1,
            'totals' => ['messages_sent' => 2019, 'messages_received' => 2017],
            'workers' => [
                ['pid' => 10, 'role' => 'worker', 'index' => 0, 'generation' => 1, 'started_at' => 1.0,
                 'in_flight' => 2, 'connections' => 5, 'memory' => 1000, 'rss' => 9000],
                ['pid' => 11, 'role' => 'worker', 'index' => 1, 'generation' => 1, 'started_at' => 1.0,
                 'in_flight' => 1, 'connections' => 1, 'memory' => 2000, 'rss' => 8000],
                ['pid' => 12, 'role' => 'task_worker', 'index' => 0, 'generation' => 1, 'started_at' => 1.0,
                 'in_flight' => 7, 'connections' => 7, 'memory' => 7, 'rss' => 7],
            ],
        ];
        $snapshots = [
            10 => ['worker' => 0, 'lag' => 0.002, 'coroutines' => 3, 'in_flight' => 2, 'connections' => 5, 'websockets' => 2,
                   'memory' => 1000, 'rss' => 1, 'concurrency_limit' => 64, 'static_compress_cached_bytes' => 300,
                   'registry' => $w0->toArray()],
            11 => ['worker' => 1, 'lag' => 0.5, 'coroutines' => 4, 'in_flight' => 0, 'connections' => 1, 'websockets' => 1,
                   'memory' => 2000, 'rss' => 1, 'concurrency_limit' => 9, 'static_compress_cached_bytes' => 45,
                   'registry' => $w1->toArray()],
        ];

        $m = PrometheusText::parse(Exposition::render($snapshots, $retired, $status));

        $this->assertSame(3.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => '/a', 'status' => '200']));
        $this->assertSame(1.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => '/b', 'status' => '500']));
        $this->assertSame(3.0, $m->value('rapier_http_request_duration_seconds_count', ['route' => '/a']));
        $this->assertSame(1.0, $m->value('rapier_http_request_duration_seconds_bucket', ['route' => '/a', 'le' => '0.005']));
        $this->assertSame(2.0, $m->value('rapier_http_request_duration_seconds_bucket', ['route' => '/a', 'le' => '10']));
        $this->assertSame(3.0, $m->value('rapier_http_request_duration_seconds_bucket', ['route' => '/a', 'le' => '+Inf']));
        $this->assertEqualsWithDelta(20.301, $m->value('rapier_http_request_duration_seconds_sum', ['route' => '/a']), 1e-9);
        $this->assertSame(2.0, $m->value('rapier_http_requests_in_flight'), 'summed over the workers\' snapshots');
        $this->assertSame(7.0, $m->value('rapier_http_requests_shed_total'), 'live and retired workers\' refusals');
        $this->assertSame(4.0, $m->value('rapier_http_requests_abandoned_total'), 'live and retired workers\' dropped requests');
        $this->assertSame(3.0, $m->value('rapier_http_requests_slow_total'), 'live and retired workers\' slow requests');
        $this->assertSame(11.0, $m->value('rapier_http_tls_handshake_failures_total'), 'live and retired workers\' failed handshakes');
        $this->assertSame(15.0, $m->value('rapier_http_static_compressed_total', ['cache' => 'hit']));
        $this->assertSame(3.0, $m->value('rapier_http_static_compressed_total', ['cache' => 'miss']), 'live and retired workers\' copies made');
        $this->assertSame(345.0, $m->value('rapier_http_static_compress_cache_bytes'), 'the live workers\' caches');
        $this->assertSame(7.0, $m->value('rapier_http_unread_bodies_total', ['outcome' => 'dropped']));
        $this->assertSame(2.0, $m->value('rapier_http_unread_bodies_total', ['outcome' => 'closed']));
        $this->assertSame(5.0, $m->value('rapier_http_unread_bodies_total', ['outcome' => 'reset']));
        $this->assertSame(6.0, $m->value('rapier_http_connections'));
        $this->assertSame(3.0, $m->value('rapier_http_websockets'), 'summed over the workers\' snapshots');
        $this->assertSame(7.0, $m->value('rapier_coroutines'));
        $this->assertSame(0.5, $m->value('rapier_event_loop_lag_seconds', ['worker' => '1']));
        $this->assertSame(64.0, $m->value('rapier_http_concurrency_limit', ['worker' => '0']));
        $this->assertSame(9.0, $m->value('rapier_http_concurrency_limit', ['worker' => '1']), 'per worker: each adapts its own');
        $this->assertSame(2000.0, $m->value('rapier_worker_memory_bytes', ['worker' => '1']));
        $this->assertSame(9000.0, $m->value('rapier_worker_rss_bytes', ['worker' => '0']), 'RSS as the master read it');
        $this->assertSame(2.0, $m->value('rapier_worker_restarts_total'));
        $this->assertSame(3.0, $m->value('rapier_worker_recycles_total'));
        $this->assertSame(1.0, $m->value('rapier_reload_failures_total'));
        $this->assertSame(42.5, $m->value('rapier_uptime_seconds'));
        $this->assertSame(2019.0, $m->value('rapier_messages_sent_total'), 'the master\'s totals: every role sends');
        $this->assertSame(2017.0, $m->value('rapier_messages_received_total'));
        $this->assertSame('counter', $m->types['rapier_messages_sent_total']);
        $this->assertSame('histogram', $m->types['rapier_http_request_duration_seconds']);
        $this->assertSame('counter', $m->types['rapier_http_requests_total']);
        $this->assertSame('counter', $m->types['rapier_http_tls_handshake_failures_total']);
        $this->assertSame('gauge', $m->types['rapier_http_websockets']);
    }

    public function testSharedTablesReportRowsAndSize(): void
    {
        $tables = ['visits' => ['rows' => 12, 'size' => 1000], 'tokens' => ['rows' => 0, 'size' => 64]];

        $m = PrometheusText::parse(Exposition::render([], new Registry(), null, $tables));
        $none = PrometheusText::parse(Exposition::render([], new Registry(), null));

        $this->assertSame('gauge', $m->types['rapier_table_rows']);
        $this->assertSame(12.0, $m->value('rapier_table_rows', ['table' => 'visits']));
        $this->assertSame(0.0, $m->value('rapier_table_rows', ['table' => 'tokens']));
        $this->assertSame(1000.0, $m->value('rapier_table_size_rows', ['table' => 'visits']));
        $this->assertSame(64.0, $m->value('rapier_table_size_rows', ['table' => 'tokens']));
        $this->assertArrayNotHasKey('rapier_table_rows', $none->types, 'no tables, no family');
    }

    public function testADrainingWorkerDoesNotDuplicateItsIndex(): void
    {
        $status = ['master' => ['uptime' => 1.0], 'workers' => [
            ['pid' => 20, 'role' => 'worker', 'index' => 0, 'generation' => 1, 'started_at' => 1.0, 'rss' => 1],
            ['pid' => 21, 'role' => 'worker', 'index' => 0, 'generation' => 2, 'started_at' => 2.0, 'rss' => 2],
        ]];
        $snapshots = [
            20 => ['worker' => 0, 'started' => 1.0, 'in_flight' => 1, 'memory' => 1, 'registry' => []],
            21 => ['worker' => 0, 'started' => 2.0, 'in_flight' => 0, 'memory' => 2, 'registry' => []],
        ];

        $m = PrometheusText::parse(Exposition::render($snapshots, new Registry(), $status));

        $this->assertCount(1, $m->named('rapier_worker_memory_bytes'));
        $this->assertSame(2.0, $m->value('rapier_worker_memory_bytes', ['worker' => '0']), 'the newest process speaks');
        $this->assertSame(2.0, $m->value('rapier_worker_rss_bytes', ['worker' => '0']));
        $this->assertCount(1, $m->named('rapier_event_loop_lag_seconds'));
        $this->assertSame(1.0, $m->value('rapier_http_requests_in_flight'), 'the draining one\'s requests still count');
    }

    public function testDeadWorkersCountersAreRetiredNotLost(): void
    {
        $dir = Cli::tempDirectory();
        try {
            $store = new Snapshots("$dir/run");
            $store->reset();
            $r = new Registry();
            $r->observe('GET', '/a', '200', 0.01);
            $store->write(100, ['worker' => 0, 'registry' => $r->toArray()]);
            $store->write(200, ['worker' => 1, 'registry' => $r->toArray()]);

            [$live, $retired] = $store->collect(static fn (int $pid): bool => $pid === 200);
            $this->assertSame([200], array_keys($live));
            $this->assertSame([['GET', '/a', '200', 1]], $retired->requests());
            $this->assertFileDoesNotExist("$dir/run/100.json");

            [$live, $retired] = $store->collect(static fn (int $pid): bool => false);
            $this->assertSame([], $live);
            $this->assertSame([['GET', '/a', '200', 2]], $retired->requests(), 'folded once each, kept across scrapes');

            $store->reset();
            $this->assertSame([], $store->collect(static fn (): bool => true)[1]->requests(), 'a new server starts at zero');
        } finally {
            Cli::removeDirectory($dir);
        }
    }
}
