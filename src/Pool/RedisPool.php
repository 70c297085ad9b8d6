<?php

declare(strict_types=1);

namespace Rapier\Pool;

use Redis;

/**
 * A Pool of phpredis connections (see RedisConnector for the health check
 * and what happens to a connection that comes back).
 *
 *     $pool = new RedisPool('127.0.0.1', 6379, options: new PoolOptions(max: 20));
 *     $hits = $pool->use(fn (Redis $redis) => $redis->incr('hits'));
 */
final class RedisPool extends Pool
{
    public function __construct(
        string $host = '127.0.0.1',
        int $port = 6379,
        #[\SensitiveParameter] ?string $password = null,
        int $database = 0,
        float $timeout = 1.0,
        ?PoolOptions $options = null,
    ) {
        parent::__construct(new RedisConnector($host, $port, $password, $database, $timeout), $options);
    }

    public function get(?float $timeout = null): Redis
    {
        $redis = parent::get($timeout);
        assert($redis instanceof Redis);

        return $redis;
    }
}
