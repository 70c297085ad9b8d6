<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PHPUnit\Framework\TestCase;
use Rapier\Coroutine;
use Rapier\Tests\Support\Coroutines;
use Rapier\Tests\Support\Services;

/**
 * phpredis inside coroutines, against a real Redis: blocking commands wait
 * side by side when the runtime hooks are on, and one after another when off.
 */
final class RedisConcurrencyTest extends TestCase
{
    public function testTwentyBlpopTimeoutsOverlap(): void
    {
        $prefix = 'blpop:' . bin2hex(random_bytes(4)) . ':';
        $seconds = Coroutines::seconds(function () use ($prefix, &$results): void {
            $results = Coroutines::map(21, static function (int $i) use ($prefix): array {
                $redis = Services::redis();
                if ($i === 20) {
                    // The last coroutine feeds the even keys while the others wait.
                    Coroutine::sleep(0.2);
                    for ($k = 0; $k < 20; $k += 2) {
                        $redis->rPush($prefix . $k, "value $k");
                    }

                    return [];
                }

                return $redis->blPop([$prefix . $i], 1);
            });
        });

        for ($i = 0; $i < 20; $i++) {
            $expected = $i % 2 === 0 ? [$prefix . $i, "value $i"] : [];
            $this->assertSame($expected, $results[$i], "coroutine $i");
        }
        // Ten BLPOPs really waited for their 1 s timeout, side by side:
        // one after another, they would take 10 s (the issue's bound is 2 s).
        $this->assertGreaterThanOrEqual(0.9, $seconds);
        $this->assertLessThan(2.0, $seconds);
    }

    public function testBlpopBlocksWithHooksDisabled(): void
    {
        $prefix = 'blpop-off:' . bin2hex(random_bytes(4)) . ':';
        $seconds = Coroutines::seconds(static function () use ($prefix): void {
            Coroutines::map(3, static function (int $i) use ($prefix): array {
                return Services::redis()->blPop([$prefix . $i], 1);
            }, hooks: false);
        });

        // Three 1 s timeouts one after another; overlapped they would take 1 s.
        $this->assertGreaterThanOrEqual(2.5, $seconds);
    }

    public function testCommandsOnSeparateConnectionsKeepTheirReplies(): void
    {
        $prefix = 'own:' . bin2hex(random_bytes(4)) . ':';
        $results = Coroutines::map(20, static function (int $i) use ($prefix): array {
            $redis = Services::redis();
            $value = str_repeat(chr(ord('a') + $i), 100000 + $i);
            $redis->set($prefix . $i, $value);
            Coroutine::sleep(0.001 * (20 - $i));

            return [$redis->get($prefix . $i) === $value, $redis->incrBy($prefix . 'counter', $i + 1)];
        });

        foreach ($results as $i => [$same]) {
            $this->assertTrue($same, "coroutine $i read back its own value");
        }
        $this->assertSame(210, (int) Services::redis()->get($prefix . 'counter'));
    }
}
