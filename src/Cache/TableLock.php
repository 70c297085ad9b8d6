<?php

declare(strict_types=1);

namespace Rapier\Cache;

use Illuminate\Cache\Lock;

/** A Laravel lock held in a CacheTable: one holder across every worker, until released or its time is up. */
final class TableLock extends Lock
{
    public function __construct(private readonly CacheTable $cache, string $name, int $seconds, ?string $owner = null)
    {
        parent::__construct($name, $seconds, $owner);
    }

    public function acquire(): bool
    {
        return $this->cache->acquireLock($this->name, $this->owner, $this->seconds);
    }

    public function release(): bool
    {
        return $this->cache->releaseLock($this->name, $this->owner);
    }

    public function forceRelease(): void
    {
        $this->cache->forceReleaseLock($this->name);
    }

    protected function getCurrentOwner(): ?string
    {
        return $this->cache->lockOwner($this->name);
    }
}
