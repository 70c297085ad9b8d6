<?php

declare(strict_types=1);

namespace Rapier\Tests\Cache;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\ServedAppTestCase;

/**
 * The Laravel and Lumen test apps under `rapier serve` with two workers and
 * the config file's table `cache`: their store `rapier` is one cache for
 * both, for counters, remember() and the throttle middleware.
 */
final class ServeLaravelCacheTest extends ServedAppTestCase
{
    public function testTheLaravelWorkersShareOneCache(): void
    {
        $port = Cli::freePort();
        $workers = $this->serve('laravel', $port);

        $counts = [];
        $pids = [];
        for ($i = 0; $i < 30; $i++) {
            $body = HttpClient::get($port, '/cache/count')->json();
            $counts[] = $body['count'];
            $pids[$body['pid']] = true;
        }
        $this->assertSame(range(1, 30), $counts, 'one count, whichever worker answers');
        $this->assertSame([], array_diff(array_keys($pids), $workers));

        $remembered = [];
        for ($i = 0; $i < 10; $i++) {
            $remembered[] = HttpClient::get($port, '/cache/remember')->json()['value'];
        }
        $this->assertCount(1, array_unique($remembered), 'computed once, then served to every worker');

        $statuses = [];
        for ($i = 0; $i < 8; $i++) {
            $response = HttpClient::get($port, '/cache/throttled');
            $statuses[] = $response->status;
        }
        $this->assertSame([200, 200, 200, 200, 200, 429, 429, 429], $statuses, 'five a minute, across both workers');

        $reload = Cli::run(['reload', '--pid-file', "$this->dir/.rapier.pid"]);
        $this->assertSame(0, $reload->exitCode, $reload->describe());
        $this->assertSame(31, HttpClient::get($port, '/cache/count')->json()['count'], 'the cache outlives the workers');
        $this->assertSame(429, HttpClient::get($port, '/cache/throttled')->status);
    }

    public function testTheLumenWorkersShareOneCache(): void
    {
        $port = Cli::freePort();
        $workers = $this->serve('lumen', $port);

        $counts = [];
        for ($i = 0; $i < 10; $i++) {
            $body = HttpClient::get($port, '/cache/count')->json();
            $counts[] = $body['count'];
            $this->assertContains($body['pid'], $workers);
        }
        $this->assertSame(range(1, 10), $counts);
    }

    /** @return list<int> the pids of the request workers */
    private function serve(string $app, int $port): array
    {
        $path = dirname(__DIR__) . "/apps/$app";
        file_put_contents("$this->dir/rapier.php", "<?php return ['app' => '$path', 'port' => $port, 'workers' => 2,"
            . " 'tables' => ['cache' => Rapier\\Cache\\CacheTable::declare(rows: 100, valueBytes: 1024)]];");
        $this->server = Cli::serve(['--config', "$this->dir/rapier.php", '--pid-file', "$this->dir/.rapier.pid"], env: [
            'RAPIER_APP_STORAGE' => "$this->dir/storage",
            'CACHE_LIMITER' => 'rapier',
        ]);
        $doc = $this->server->waitForWorkers("$this->dir/.rapier.pid", 2);

        return ServedApp::workerPids($doc);
    }
}
