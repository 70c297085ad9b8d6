<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedAppTestCase;

/** Framework adapters name the route pattern that matched, so /users/5 and /users/6 are one route. */
final class MetricsFrameworkRouteTest extends ServedAppTestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function apps(): iterable
    {
        yield 'laravel' => ['laravel', '/users/{id}'];
        yield 'lumen' => ['lumen', '/users/{id:[0-9]+}'];
        yield 'symfony' => ['symfony', '/users/{id}'];
    }

    /** @dataProvider apps */
    public function testRequestsAreLabelledWithTheRoutePattern(string $name, string $route): void
    {
        $port = Cli::freePort();
        $this->server = Cli::serve([dirname(__DIR__) . "/apps/$name", '--port', (string) $port, '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid", '--metrics', '/metrics'], env: ['RAPIER_APP_STORAGE' => "$this->dir/storage"]);
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);
        foreach ([5, 6, 7] as $id) {
            $this->assertSame(200, HttpClient::get($port, "/users/$id")->status, $this->server->output());
        }
        // A request that ends in exit() inside the route is labelled with the route too.
        $exited = HttpClient::get($port, '/users/8?exit=1');
        $this->assertSame([200, 'bye'], [$exited->status, $exited->body], $this->server->output());

        $m = PrometheusText::parse(HttpClient::get($port, "/metrics")->body);

        $this->assertSame(4.0, $m->value('rapier_http_requests_total', ['method' => 'GET', 'route' => $route, 'status' => '200']));
    }
}
