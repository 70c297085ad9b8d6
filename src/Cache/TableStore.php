<?php

declare(strict_types=1);

namespace Rapier\Cache;

use Illuminate\Cache\RetrievesMultipleKeys;
use Illuminate\Contracts\Cache\Lock;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;

/**
 * Laravel's cache store `rapier`: a CacheTable shared by every worker of
 * `rapier serve` (Octane's `octane` store, with atomic add() and
 * increment() and with locks). Its keys carry the store's prefix.
 * Registered by the Laravel and Lumen adapters (LaravelCacheDriver).
 */
final class TableStore implements Store, LockProvider
{
    use RetrievesMultipleKeys;

    public function __construct(private readonly CacheTable $cache, private readonly string $prefix = '')
    {
    }

    public function get($key): mixed
    {
        return $this->cache->get($this->prefix . $key);
    }

    public function put($key, $value, $seconds): bool
    {
        return $this->cache->put($this->prefix . $key, $value, max(1, (int) $seconds));
    }

    /** Called by Repository::add() with a TTL: put() only if there is no value, as one step. */
    public function add(string $key, mixed $value, int $seconds): bool
    {
        return $this->cache->add($this->prefix . $key, $value, max(1, $seconds));
    }

    public function increment($key, $value = 1): int|false
    {
        return $this->cache->increment($this->prefix . $key, (int) $value);
    }

    public function decrement($key, $value = 1): int|false
    {
        return $this->cache->increment($this->prefix . $key, -(int) $value);
    }

    public function forever($key, $value): bool
    {
        return $this->cache->put($this->prefix . $key, $value, 0);
    }

    public function forget($key): bool
    {
        return $this->cache->forget($this->prefix . $key);
    }

    /** Empties the whole table, whatever the prefix: a table serves one store. */
    public function flush(): bool
    {
        $this->cache->flush();

        return true;
    }

    public function getPrefix(): string
    {
        return $this->prefix;
    }

    public function lock($name, $seconds = 0, $owner = null): Lock
    {
        return new TableLock($this->cache, $this->prefix . $name, (int) $seconds, $owner);
    }

    public function restoreLock($name, $owner): Lock
    {
        return $this->lock($name, 0, $owner);
    }
}
