<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedAppTestCase;

/** `rapier serve --metrics /metrics` end to end: a real master, two workers, real HTTP. */
final class MetricsServeTest extends ServedAppTestCase
{
    private const APP = <<<'PHP'
        <?php
        return function (Rapier\Http\Request $request, Rapier\Http\Response $response): void {
            if ($request->path === '/slow') {
                Rapier\Coroutine::sleep(3.0);
            }
            if ($request->path === '/broadcast') {
                $response->end((string) Rapier\App\Messages::broadcast('ping', 1));
                return;
            }
            if ($request->path === '/exit') {
                $response->status(202);
                exit();
            }
            if (str_starts_with($request->path, '/missing')) {
                $response->status(404)->end('none');
                return;
            }
            $response->end('ok');
        };
        PHP;

    private int $port;

    protected function setUp(): void
    {
        parent::setUp();
        file_put_contents("$this->dir/app.php", self::APP);
        $this->port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $this->port, '--workers', '2', '--metrics', '/metrics', '--concurrency', '24']);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 2);
    }

    public function testCountsEveryWorkersRequestsByRouteAndStatus(): void
    {
        for ($i = 1; $i <= 20; $i++) {
            HttpClient::get($this->port, "/users/$i");
        }
        for ($i = 0; $i < 6; $i++) {
            HttpClient::get($this->port, "/missing/page");
        }
        HttpClient::request($this->port, 'POST', '/users/7', [], 'x=1');

        // Other workers publish once a second: scrape until every request shows.
        $m = $this->scrapeUntil(fn (PrometheusText $m): bool => $this->total($m) === 27.0);
        $notFound = '404';
        $ok = '200';
        $this->assertSame(20.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => '/users/{n}', 'status' => $ok]));
        $this->assertSame(1.0, $m->value('rapier_http_requests_total', ['method' => 'POST', 'route' => '/users/{n}', 'status' => $ok]));
        $this->assertSame(6.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => '/missing/page', 'status' => $notFound]));

        // Both workers served: each one's snapshot reports its lag, and the counts are their sum.
        $this->assertCount(2, $m->named('rapier_event_loop_lag_seconds'));
        $this->assertCount(2, $m->named('rapier_worker_memory_bytes'));
        // No --latency-target: each worker's limit stays the --concurrency it was given.
        $this->assertSame(24.0, $m->value('rapier_http_concurrency_limit', ['worker' => '0']));
        $this->assertSame(24.0, $m->value('rapier_http_concurrency_limit', ['worker' => '1']));
        $this->assertGreaterThan(1_000_000, $m->value('rapier_worker_rss_bytes', ['worker' => '1']));
        $this->assertSame(0.0, $m->value('rapier_worker_restarts_total'));
        $this->assertGreaterThan(0.0, $m->value('rapier_uptime_seconds'));
        // Plain HTTP, no upgrade: both families are there, at zero.
        $this->assertSame(0.0, $m->value('rapier_http_websockets'));
        $this->assertSame(0.0, $m->value('rapier_http_tls_handshake_failures_total'));

        // rapier serve always takes messages: the counters are there, at zero until something is sent.
        $this->assertSame(0.0, $m->value('rapier_messages_sent_total'));
        $this->assertSame(2, (int) HttpClient::get($this->port, '/broadcast')->body);
        $this->assertSame(2, (int) HttpClient::get($this->port, '/broadcast')->body);
        $m = $this->scrapeUntil(fn (PrometheusText $m): bool => $m->value('rapier_messages_received_total') === 4.0);
        $this->assertSame(4.0, $m->value('rapier_messages_sent_total'), 'two broadcasts to two workers');

        foreach (['/users/{n}' => 21.0, '/missing/page' => 6.0] as $route => $count) {
            $this->assertSame($count, $m->value('rapier_http_request_duration_seconds_count', ['route' => $route]));
            $buckets = array_values(array_filter($m->named('rapier_http_request_duration_seconds_bucket'),
                static fn (array $s): bool => $s['labels']['route'] === $route));
            $this->assertCount(15, $buckets, '14 bounds and +Inf');
            $this->assertSame('+Inf', end($buckets)['labels']['le']);
            $this->assertSame($count, end($buckets)['value'], '+Inf bucket == count');
            for ($i = 1; $i < count($buckets); $i++) {
                $this->assertGreaterThanOrEqual($buckets[$i - 1]['value'], $buckets[$i]['value'], "buckets of $route are monotonic");
            }
        }
    }

    public function testARequestEndedByExitIsCountedAndTheWorkersStay(): void
    {
        for ($i = 0; $i < 4; $i++) {
            $this->assertSame(202, HttpClient::get($this->port, '/exit')->status);
        }
        $m = $this->scrapeUntil(fn (PrometheusText $m): bool => $this->total($m) === 4.0);
        $this->assertSame(4.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => '/exit', 'status' => '202']));
        $this->assertSame(0.0, $m->value('rapier_worker_restarts_total'));
    }

    public function testTheScrapeIsNeitherCountedNorSeenByTheApp(): void
    {
        HttpClient::get($this->port, '/hello');
        for ($i = 0; $i < 5; $i++) {
            $response = HttpClient::get($this->port, '/metrics');
            $this->assertSame(200, $response->status);
            $this->assertStringStartsWith('text/plain; version=0.0.4', (string) $response->header('content-type'));
            $this->assertStringContainsString("# TYPE rapier_http_requests_total counter\n", $response->body, 'answered by the metrics page, not the app');
        }

        $m = $this->scrapeUntil(fn (PrometheusText $m): bool => $this->total($m) === 1.0);
        $this->assertSame([], array_filter($m->named('rapier_http_requests_total'),
            static fn (array $s): bool => $s['labels']['route'] === '/metrics'));
        $this->assertSame(0.0, $m->value('rapier_http_requests_in_flight'), 'the scrape itself is not in flight');
    }

    public function testASlowRequestIsInFlight(): void
    {
        $slow = stream_socket_client("tcp://127.0.0.1:$this->port", $errno, $error, 5);
        $this->assertNotFalse($slow, $error);
        fwrite($slow, "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

        $m = $this->scrapeUntil(static fn (PrometheusText $m): bool => $m->value('rapier_http_requests_in_flight') === 1.0);
        $this->assertSame(1.0, $m->value('rapier_http_requests_in_flight'));
        $this->assertGreaterThanOrEqual(1.0, $m->value('rapier_http_connections'));

        stream_set_timeout($slow, 10);
        $this->assertStringContainsString("\r\n\r\nok", (string) stream_get_contents($slow));
        fclose($slow);
        $m = $this->scrapeUntil(fn (PrometheusText $m): bool => $this->total($m) === 1.0);
        $this->assertSame(0.0, $m->value('rapier_http_requests_in_flight'));
        $this->assertSame(0.0, $m->value('rapier_http_request_duration_seconds_bucket', ['route' => '/slow', 'le' => '2.5']));
        $this->assertSame(1.0, $m->value('rapier_http_request_duration_seconds_bucket', ['route' => '/slow', 'le' => '5']));
    }

    private function total(PrometheusText $m): float
    {
        return array_sum(array_column($m->named('rapier_http_requests_total'), 'value'));
    }

    /** Scrapes (and parses) until $done says yes, 10 s at most; returns the last scrape. */
    private function scrapeUntil(callable $done): PrometheusText
    {
        $deadline = microtime(true) + 10.0;
        do {
            $response = HttpClient::get($this->port, '/metrics');
            $this->assertSame(200, $response->status, $response->body);
            $m = PrometheusText::parse($response->body);
            if ($done($m)) {
                return $m;
            }
            usleep(100000);
        } while (microtime(true) < $deadline);

        return $m;
    }
}
