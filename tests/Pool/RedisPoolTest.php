<?php

declare(strict_types=1);

namespace Rapier\Tests\Pool;

use PHPUnit\Framework\TestCase;
use Rapier\Coroutine;
use Rapier\Pool\ConnectionException;
use Rapier\Pool\PoolOptions;
use Rapier\Pool\RedisPool;
use Rapier\Tests\Support\Services;
use Rapier\WaitGroup;
use Redis;
use RedisException;

use function Rapier\go;
use function Rapier\run;

/**
 * RedisPool against the suite's Redis: the clients the server sees (CLIENT
 * LIST from a connection of the test's own), killed clients replaced, and
 * connections left in MULTI or another database.
 */
final class RedisPoolTest extends TestCase
{
    public function testFiftyCoroutinesThroughFiveConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 5));
        $before = $this->clientIds(Services::redis());
        $peak = 0;

        $ids = run(function () use ($pool, $before, &$peak): array {
            $ids = [];
            $workers = new WaitGroup();
            $workers->add(50);
            $observing = true;
            go(function () use ($before, &$observing, &$peak): void {
                $observer = Services::redis();
                while ($observing) {
                    $peak = max($peak, count(array_diff($this->clientIds($observer), $before)) - 1);
                    Coroutine::sleep(0.005);
                }
            });
            for ($i = 0; $i < 50; $i++) {
                go(function () use ($pool, $workers, $i, &$ids): void {
                    $ids[$i] = $pool->use(function (Redis $redis) use ($i): int {
                        $redis->set("pool:test:$i", (string) $i);
                        Coroutine::sleep(0.01);     // hold the connection a while

                        return (int) $redis->rawCommand('CLIENT', 'ID');
                    });
                    $workers->done();
                });
            }
            $workers->wait();
            $observing = false;

            return $ids;
        });

        $this->assertCount(50, $ids);
        $this->assertCount(5, array_unique($ids));
        // Less the observer itself, the server saw the pool's five clients at most.
        $this->assertSame(5, $peak);
    }

    public function testHealthCheckReplacesAKilledClient(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 0));

        [$first, $second, $value] = run(function () use ($pool): array {
            $first = $this->clientId($pool);
            Services::redis()->rawCommand('CLIENT', 'KILL', 'ID', (string) $first);

            return [$first, $this->clientId($pool), $pool->use(fn (Redis $redis) => $redis->echo('still works'))];
        });

        $this->assertNotSame($first, $second);
        $this->assertSame('still works', $value);
    }

    public function testConnectionLeftInMultiIsClosed(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1));

        $outcome = run(function () use ($pool): array {
            $redis = $pool->get();
            $redis->multi();
            $redis->set('pool:multi', 'never executed');
            $pool->put($redis);

            return [$pool->stats()['open'], $pool->use(fn (Redis $redis) => $redis->exists('pool:multi'))];
        });

        $this->assertSame([0, 0], $outcome);
    }

    public function testSelectedDatabaseIsSwitchedBack(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1), database: 1);

        $outcome = run(function () use ($pool): array {
            $redis = $pool->get();
            $id = (int) $redis->rawCommand('CLIENT', 'ID');
            $redis->select(3);
            $pool->put($redis);
            unset($redis);

            return $pool->use(fn (Redis $redis): array => [
                (int) $redis->rawCommand('CLIENT', 'ID') === $id,
                $redis->getDbNum(),
                (bool) preg_match('/ db=1 /', (string) $redis->rawCommand('CLIENT', 'INFO')),
            ]);
        });

        $this->assertSame([true, 1, true], $outcome);
    }

    public function testRedisExceptionInUseClosesTheConnection(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1));

        $outcome = run(function () use ($pool): array {
            $first = $this->clientId($pool);
            try {
                $pool->use(fn () => throw new RedisException('read error on connection'));
            } catch (RedisException) {
            }

            return [$pool->stats()['open'], $this->clientId($pool) !== $first];
        });

        $this->assertSame([0, true], $outcome);
    }

    public function testRefusedConnectionIsAConnectionException(): void
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
        fclose($server);
        $pool = new RedisPool('127.0.0.1', $port, 'Redis-Secret-3');

        $message = run(function () use ($pool): string {
            try {
                $pool->get();
            } catch (ConnectionException $e) {
                return $e->getMessage();
            }

            return 'connected';
        });

        $this->assertSame("Cannot connect to redis 127.0.0.1:$port db 0: Connection refused", $message);
        $this->assertStringNotContainsString('Secret', print_r($pool, true));
    }

    public function testUnixSocketPathConnectsWhateverThePort(): void
    {
        $pool = new RedisPool(Services::redisSocket(), database: 2);

        $seen = run(fn (): array => $pool->use(fn (Redis $redis): array => [
            $redis->getHost(),
            $redis->rawCommand('CLIENT', 'INFO'),
        ]));

        $this->assertSame(Services::redisSocket(), $seen[0]);
        $this->assertMatchesRegularExpression('/ db=2 /', (string) $seen[1]);
        $this->assertMatchesRegularExpression('#laddr=' . preg_quote(Services::redisSocket(), '#') . ':0 #', (string) $seen[1]);
    }

    private function pool(PoolOptions $options, int $database = 0): RedisPool
    {
        return new RedisPool('127.0.0.1', Services::redisPort(), database: $database, options: $options);
    }

    private function clientId(RedisPool $pool): int
    {
        return $pool->use(fn (Redis $redis) => (int) $redis->rawCommand('CLIENT', 'ID'));
    }

    /** @return list<int> ids of the clients the server has now, the asking one included */
    private function clientIds(Redis $observer): array
    {
        preg_match_all('/^id=(\d+) /m', (string) $observer->rawCommand('CLIENT', 'LIST'), $m);

        return array_map('intval', $m[1]);
    }
}
