<?php

declare(strict_types=1);

namespace Rapier\Pool;

use Redis;
use RedisException;
use Throwable;

/**
 * phpredis connections for a Pool: connect, AUTH, SELECT; the health check
 * is PING. A connection comes back reusable unless the borrower's callback
 * failed with a RedisException, it is disconnected, or it is left inside
 * MULTI or a pipeline; a SELECTed other database is switched back.
 */
final class RedisConnector implements Connector
{
    /**
     * @param string $host an address, or the path of a Unix socket
     * @param float $timeout connect timeout in seconds
     */
    public function __construct(
        private readonly string $host = '127.0.0.1',
        private readonly int $port = 6379,
        #[\SensitiveParameter] private readonly ?string $password = null,
        private readonly int $database = 0,
        private readonly float $timeout = 1.0,
    ) {
    }

    public function connect(): Redis
    {
        $redis = new Redis();
        try {
            // phpredis takes a host starting with / for a Unix socket only when the port is below 1.
            $ok = $redis->connect($this->host, $this->isUnixSocket() ? 0 : $this->port, $this->timeout);
        } catch (RedisException $e) {
            throw new ConnectionException(sprintf('Cannot connect to %s: %s', $this->describe(), $e->getMessage()), 0, $e);
        }
        if (!$ok) {
            throw new ConnectionException(sprintf('Cannot connect to %s', $this->describe()));
        }
        $this->prepare($redis);

        return $redis;
    }

    public function check(object $connection): bool
    {
        assert($connection instanceof Redis);
        try {
            return $connection->ping() !== false;
        } catch (RedisException) {
            return false;
        }
    }

    public function reset(object $connection, ?Throwable $error): bool
    {
        assert($connection instanceof Redis);
        if ($error instanceof RedisException || !$connection->isConnected()) {
            return false;
        }
        if ($connection->getMode() !== Redis::ATOMIC) {
            return false;
        }
        try {
            return $connection->getDbNum() === $this->database || $connection->select($this->database);
        } catch (RedisException) {
            return false;
        }
    }

    public function close(object $connection): void
    {
        assert($connection instanceof Redis);
        try {
            $connection->close();
        } catch (RedisException) {
            // Already disconnected.
        }
    }

    public function describe(): string
    {
        if ($this->isUnixSocket()) {
            return "redis unix:{$this->host} db {$this->database}";
        }

        return "redis {$this->host}:{$this->port} db {$this->database}";
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return ['address' => $this->describe(), 'password' => $this->password === null ? null : '(hidden)'];
    }

    /**
     * AUTH and SELECT. A RedisException thrown by auth() is not chained: its
     * trace would hold the password as an argument unless
     * zend.exception_ignore_args is on.
     */
    private function isUnixSocket(): bool
    {
        return str_starts_with($this->host, '/');
    }

    private function prepare(Redis $redis): void
    {
        try {
            if ($this->password !== null && !$redis->auth($this->password)) {
                throw new ConnectionException(sprintf('Cannot authenticate to %s: %s', $this->describe(), $redis->getLastError() ?? 'AUTH refused'));
            }
            if ($this->database !== 0 && !$redis->select($this->database)) {
                throw new ConnectionException(sprintf('Cannot select database %d on %s: %s', $this->database, $this->describe(), $redis->getLastError() ?? 'SELECT refused'));
            }
        } catch (RedisException $e) {
            throw new ConnectionException(sprintf('Cannot set up the connection to %s: %s', $this->describe(), $e->getMessage()));
        }
    }
}
