<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\ServedAppTestCase;

/**
 * `rapier serve --concurrency 1 --queue-timeout S`: a request that waits S
 * seconds is refused by the server, and counted; so is one whose client
 * leaves while it waits.
 */
final class MetricsShedTest extends ServedAppTestCase
{
    /** /slow holds the one slot until the test creates the file "release" (30 s at most). */
    private const APP = <<<'PHP'
        <?php
        return function (Rapier\Http\Request $request, Rapier\Http\Response $response): void {
            for ($i = 0; $request->path === '/slow' && $i < 3000 && !file_exists(__DIR__ . '/release'); $i++) {
                Rapier\Coroutine::sleep(0.01);
            }
            $response->end('ok');
        };
        PHP;

    public function testAQueuedRequestIsRefusedWith503AndCounted(): void
    {
        file_put_contents("$this->dir/app.php", self::APP);
        file_put_contents("$this->dir/rapier.php", "<?php return ['server' => ['access_log' => __DIR__ . '/access.log']];\n");
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--config', "$this->dir/rapier.php", '--port', (string) $port,
            '--workers', '1', '--concurrency', '1', '--queue-timeout', '0.3', '--metrics', '/metrics']);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $slow = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 5);
        $this->assertNotFalse($slow, $error);
        fwrite($slow, "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        $this->waitFor(fn (): bool => (ServedApp::status("$this->dir/.rapier.pid")['workers'][0]['in_flight'] ?? 0) === 1,
            '/slow to hold the slot');

        $refused = HttpClient::get($port, '/queued');
        $this->assertSame(503, $refused->status, $refused->body);
        $this->assertSame('1', $refused->header('retry-after'));
        $this->assertStringContainsString('queue_timeout', $refused->body);
        $slowMeta = stream_get_meta_data($slow);
        $this->assertFalse($slowMeta['eof'], 'refused while the slot was still busy');

        // Queued, or read with its end of stream and then queued: either way it left while it waited.
        $left = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 5);
        $this->assertNotFalse($left, $error);
        fwrite($left, "GET /left HTTP/1.1\r\nHost: x\r\n\r\n");
        fclose($left);
        $this->waitFor(fn (): bool => str_contains((string) @file_get_contents("$this->dir/access.log"), '"GET /left HTTP/1.1" 499 '),
            'the access log to show /left abandoned');

        touch("$this->dir/release");
        stream_set_timeout($slow, 30);
        $this->assertStringContainsString("\r\n\r\nok", (string) stream_get_contents($slow));
        fclose($slow);

        $scrape = HttpClient::get($port, '/metrics');
        $this->assertSame(200, $scrape->status, $scrape->body);
        $m = PrometheusText::parse($scrape->body);
        $this->assertSame(1.0, $m->value('rapier_http_requests_shed_total'));
        $this->assertSame(1.0, $m->value('rapier_http_requests_abandoned_total'));
        $this->assertSame(1.0, $m->value('rapier_http_concurrency_limit', ['worker' => '0']));
        $this->assertSame(1.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => '/slow', 'status' => '200']));
        $this->assertSame([], array_filter($m->named('rapier_http_requests_total'),
            static fn (array $s): bool => in_array($s['labels']['route'], ['/queued', '/left'], true)),
            'the application never saw them');

        // The master's status document has it too, published when /slow ended and when /metrics began.
        $doc = ServedApp::status("$this->dir/.rapier.pid");
        $this->assertSame(1, $doc['workers'][0]['shed']);
        $this->assertSame(1, $doc['workers'][0]['concurrency_limit']);
        $this->assertSame(1, $doc['totals']['shed']);
        $this->assertSame(1, $doc['workers'][0]['abandoned']);
        $this->assertSame(1, $doc['totals']['abandoned']);
    }

    protected function tearDown(): void
    {
        // A failed test leaves /slow holding its slot; stopping would wait for it.
        touch("$this->dir/release");
        parent::tearDown();
    }

    /** Polls $condition until it holds; fails after 30 s. */
    private function waitFor(callable $condition, string $what): void
    {
        for ($deadline = microtime(true) + 30; !$condition(); usleep(10000)) {
            if (microtime(true) > $deadline) {
                $this->fail("timed out waiting for $what\n" . $this->server?->output());
            }
        }
    }
}
