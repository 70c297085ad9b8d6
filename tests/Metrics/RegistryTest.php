<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use PHPUnit\Framework\TestCase;
use Rapier\Metrics\Registry;
use Rapier\Metrics\RouteLabel;

final class RegistryTest extends TestCase
{
    public function testCountsByMethodRouteAndStatus(): void
    {
        $r = new Registry();
        $r->observe('GET', '/a', '200', 0.001);
        $r->observe('GET', '/a', '200', 0.002);
        $r->observe('POST', '/a', '201', 0.003);
        $r->observe('BREW', '/a', '200', 0.003);

        $this->assertSame([['GET', '/a', '200', 2], ['POST', '/a', '201', 1], ['other', '/a', '200', 1]],
            $r->requests());
    }

    public function testHistogramBucketsBySeconds(): void
    {
        $r = new Registry();
        $r->observe('GET', '/a', '200', 0.005);   // on the bound: le="0.005"
        $r->observe('GET', '/a', '200', 0.0051);
        $r->observe('GET', '/a', '200', 11.0);    // above every bound: +Inf only

        $h = $r->durations()['/a'];
        $this->assertSame(1, $h['buckets'][0]);
        $this->assertSame(1, $h['buckets'][1]);
        $this->assertSame(1, $h['buckets'][count(Registry::BUCKETS)]);
        $this->assertSame(3, $h['count']);
        $this->assertEqualsWithDelta(11.0101, $h['sum'], 1e-9);
    }

    public function testAddSumsAndSurvivesTheSnapshotRoundTrip(): void
    {
        $a = new Registry();
        $a->observe('GET', '/a', '200', 0.01);
        $b = new Registry();
        $b->observe('GET', '/a', '200', 0.2);
        $b->observe('GET', '/b', '404', 0.02);
        $a->setServerCounters(['shed' => 3, 'slow' => 1, 'tls_handshake_failures' => 2, 'unread_bodies_closed' => 1]);
        $b->setServerCounters(['shed' => 4, 'abandoned' => 2, 'slow' => 5, 'tls_handshake_failures' => 8,
            'static_compress_hits' => 9, 'unread_bodies_closed' => 6]);
        $copy = Registry::fromArray(json_decode((string) json_encode($b->toArray(), JSON_PRESERVE_ZERO_FRACTION), true));

        $a->add($copy);

        $this->assertSame([['GET', '/a', '200', 2], ['GET', '/b', '404', 1]], $a->requests());
        $this->assertSame(2, $a->durations()['/a']['count']);
        $this->assertEqualsWithDelta(0.21, $a->durations()['/a']['sum'], 1e-12);
        $this->assertSame(7, $a->serverCounter('shed'));
        $this->assertSame(2, $a->serverCounter('abandoned'));
        $this->assertSame(6, $a->serverCounter('slow'));
        $this->assertSame(10, $a->serverCounter('tls_handshake_failures'));
        $this->assertSame(9, $a->serverCounter('static_compress_hits'));
        $this->assertSame(0, $a->serverCounter('static_compress_misses'));
        $this->assertSame(7, $a->serverCounter('unread_bodies_closed'));
    }

    public function testFromArraySkipsWhatDoesNotFit(): void
    {
        $r = Registry::fromArray(['requests' => [['GET', '/a', '200', 'x'], 'junk', ['GET', '/b', '200', 4]],
            'durations' => ['/a' => ['buckets' => [1], 'sum' => 1, 'count' => 1]]]);

        $this->assertSame([['GET', '/b', '200', 4]], $r->requests());
        $this->assertSame([], $r->durations());
    }

    public function testRouteLabelCollapsesNumbersAndCapsDistinctRoutes(): void
    {
        $this->assertSame('/users/{n}/posts/{n}', RouteLabel::collapse('/users/42/posts/7'));
        $this->assertSame('/v2/item42', RouteLabel::collapse('/v2/item42'), 'only whole numeric segments');
        $labels = new RouteLabel();
        $this->assertSame('/users/{id}', $labels->label('/users/{id}', '/users/1'), 'the adapter\'s route wins');
        for ($i = 1; $i < RouteLabel::MAX_ROUTES; $i++) {
            $labels->label(null, "/page-$i");
        }
        $this->assertSame(RouteLabel::OTHER, $labels->label(null, '/one-too-many'));
        $this->assertSame('/page-3', $labels->label(null, '/page-3'), 'routes already seen keep their label');
    }
}
