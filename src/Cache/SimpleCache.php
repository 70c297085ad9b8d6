<?php

declare(strict_types=1);

namespace Rapier\Cache;

use DateInterval;
use DateTimeImmutable;
use Psr\SimpleCache\CacheInterface;
use Traversable;

/**
 * A PSR-16 cache over a CacheTable, for Symfony (through its Psr16Adapter),
 * Slim and any code that takes a Psr\SimpleCache\CacheInterface: one cache
 * for every worker of `rapier serve`. Keys follow PSR-16: a non-empty
 * string without {}()/\@: (InvalidArgumentException otherwise). A value
 * that is not stored (see CacheTable::put()) makes set() return false.
 */
final class SimpleCache implements CacheInterface
{
    private const RESERVED = '{}()/\@:';

    /** @param int $defaultTtl seconds an entry set without a TTL lasts (0: until removed) */
    public function __construct(private readonly CacheTable $cache, private readonly int $defaultTtl = 0)
    {
    }

    public function get($key, $default = null): mixed
    {
        return $this->cache->get(self::key($key), $default);
    }

    public function set($key, $value, $ttl = null): bool
    {
        $key = self::key($key);
        $seconds = $this->seconds($ttl);
        if ($ttl !== null && $seconds <= 0) {
            // PSR-16: a TTL of zero or less removes the item.
            $this->cache->forget($key);

            return true;
        }

        return $this->cache->put($key, $value, $seconds);
    }

    public function delete($key): bool
    {
        $this->cache->forget(self::key($key));

        return true;
    }

    public function clear(): bool
    {
        $this->cache->flush();

        return true;
    }

    /** @return array<string, mixed> */
    public function getMultiple($keys, $default = null): iterable
    {
        $values = [];
        foreach (self::keys($keys) as $key) {
            $values[$key] = $this->cache->get($key, $default);
        }

        return $values;
    }

    public function setMultiple($values, $ttl = null): bool
    {
        if (!is_iterable($values)) {
            throw new InvalidArgumentException('The values must be an array or a Traversable of key => value, '
                . get_debug_type($values) . ' given');
        }
        $stored = true;
        foreach ($values as $key => $value) {
            $stored = $this->set(is_int($key) ? (string) $key : $key, $value, $ttl) && $stored;
        }

        return $stored;
    }

    public function deleteMultiple($keys): bool
    {
        foreach (self::keys($keys) as $key) {
            $this->cache->forget($key);
        }

        return true;
    }

    public function has($key): bool
    {
        return $this->cache->has(self::key($key));
    }

    /** @throws InvalidArgumentException */
    private static function key(mixed $key): string
    {
        if (!is_string($key) || $key === '' || strpbrk($key, self::RESERVED) !== false) {
            throw new InvalidArgumentException(sprintf('A cache key must be a non-empty string without any of %s, %s given',
                self::RESERVED, is_string($key) ? '"' . $key . '"' : get_debug_type($key)));
        }

        return $key;
    }

    /** @return list<string> */
    private static function keys(mixed $keys): array
    {
        if (!is_array($keys) && !$keys instanceof Traversable) {
            throw new InvalidArgumentException('The keys must be an array or a Traversable, ' . get_debug_type($keys) . ' given');
        }
        $checked = [];
        foreach ($keys as $key) {
            $checked[] = self::key(is_int($key) ? (string) $key : $key);
        }

        return $checked;
    }

    /** The seconds of a PSR-16 TTL: null is the default, an interval counts from now. */
    private function seconds(mixed $ttl): int
    {
        return match (true) {
            $ttl === null => $this->defaultTtl,
            is_int($ttl) => $ttl,
            $ttl instanceof DateInterval => ($now = new DateTimeImmutable())->add($ttl)->getTimestamp() - $now->getTimestamp(),
            default => throw new InvalidArgumentException('A TTL must be null, an int of seconds or a DateInterval, '
                . get_debug_type($ttl) . ' given'),
        };
    }
}
