<?php

declare(strict_types=1);

namespace Rapier\Tests\Bench;

use PHPUnit\Framework\TestCase;

require_once dirname(__DIR__, 2) . '/bench/servers/options.php';

/** bench/servers/options.php: the Rapier bench servers' options as run.sh's environment sets them. */
final class ServerOptionsTest extends TestCase
{
    private const VARIABLES = [
        'BENCH_RAPIER_WORKERS',
        'BENCH_RAPIER_CONCURRENCY',
        'BENCH_RAPIER_QUEUE_TIMEOUT',
        'BENCH_RAPIER_LATENCY_TARGET',
        'BENCH_RAPIER_TLS_CERT_FILE',
        'BENCH_RAPIER_TLS_KEY_FILE',
    ];

    /** @var array<string, string|false> */
    private array $saved = [];

    protected function setUp(): void
    {
        foreach (self::VARIABLES as $name) {
            $this->saved[$name] = getenv($name);
            putenv($name);
        }
    }

    protected function tearDown(): void
    {
        foreach ($this->saved as $name => $value) {
            putenv($value === false ? $name : "$name=$value");
        }
    }

    public function testDefaultsLimitToThePoolAndShedAndAdapt(): void
    {
        self::assertSame(
            ['workers' => 2, 'concurrency' => 100, 'queue_timeout' => 1.5, 'latency_target' => 0.03],
            bench_server_options(100),
        );
    }

    public function testZeroTurnsAnOptionOffWhileEmptyMeansTheDefault(): void
    {
        putenv('BENCH_RAPIER_QUEUE_TIMEOUT=0');
        putenv('BENCH_RAPIER_LATENCY_TARGET=');
        putenv('BENCH_RAPIER_WORKERS=4');

        self::assertSame(['workers' => 4, 'concurrency' => 100, 'latency_target' => 0.03], bench_server_options(100));
    }

    public function testOneAtATimeHasNothingToAdaptAndNoLimitHasNothingToShed(): void
    {
        putenv('BENCH_RAPIER_CONCURRENCY=1');
        self::assertSame(['workers' => 2, 'concurrency' => 1, 'queue_timeout' => 1.5], bench_server_options(100));

        putenv('BENCH_RAPIER_CONCURRENCY=0');
        self::assertSame(['workers' => 2, 'concurrency' => 0], bench_server_options(100));
    }

    public function testRapierTlsServesHttpsWithTheRunsCertificate(): void
    {
        putenv('BENCH_RAPIER_TLS_CERT_FILE=/tmp/bench/tls/cert.pem');
        putenv('BENCH_RAPIER_TLS_KEY_FILE=/tmp/bench/tls/key.pem');

        $options = bench_server_options(100);

        self::assertSame('/tmp/bench/tls/cert.pem', $options['tls_cert_file']);
        self::assertSame('/tmp/bench/tls/key.pem', $options['tls_key_file']);
        self::assertArrayNotHasKey('tls_min_version', $options, 'TLS 1.2 and 1.3, as nginx-tls offers them');
    }
}
