<?php

declare(strict_types=1);

namespace Rapier\Cache;

use Closure;
use Rapier\Exception;
use Rapier\Table;
use Rapier\TableFullException;
use ValueError;

/**
 * A cache with expiry, atomic add and increment, and locks, over a shared
 * Rapier\Table: what every worker of `rapier serve` sees at once, without
 * a round trip to Redis. Laravel's store (TableStore) and the PSR-16 cache
 * (SimpleCache) are thin faces on it.
 *
 * Each row is one entry: an int in `number` (so that increment() is exact),
 * anything else serialized in `value` (at most the column's bytes), a lock's
 * owner in `value`; `expires` in Unix milliseconds, 0 for never. Every
 * change that depends on what a row held (add over an expired entry,
 * increment, a lock's release) is a Table::replace() or delete() expecting
 * the row as it was read, retried if another process changed it meanwhile:
 * of workers racing on one key, each gets a distinct count and one gets a lock.
 *
 * The table's size is fixed. A write that finds it full first removes the
 * expired entries (at most once a second in a process) and tries again;
 * if it is still full the write fails (false), as does a value larger than
 * the column. Keys longer than Table::KEY_MAX bytes are stored by their
 * SHA-256 digest.
 */
final class CacheTable
{
    private const KIND_INT = 0;

    private const KIND_SERIALIZED = 1;

    private const KIND_LOCK = 2;

    /** Second (of the clock) of the last sweep of expired entries in this process. */
    private int $sweptAt = -1;

    private readonly int $valueBytes;

    /** @var Closure(): int the time in Unix milliseconds */
    private readonly Closure $clock;

    /**
     * The declaration of a cache table for the config file of `rapier serve`:
     *
     *     'tables' => ['cache' => Rapier\Cache\CacheTable::declare(rows: 10000, valueBytes: 10000)],
     *
     * $valueBytes bounds a serialized value; each row reserves about
     * $valueBytes + 112 bytes of shared memory, resident once used.
     *
     * @return array{size: int, columns: array<string, string>}
     */
    public static function declare(int $rows = 1000, int $valueBytes = 10000): array
    {
        return ['size' => $rows, 'columns' => self::columns($valueBytes)];
    }

    /**
     * @param Table $table a table made with declare()'s columns
     * @param (Closure(): int)|null $clock the time in Unix milliseconds (the system's by default)
     * @throws Exception if the table has other columns
     */
    public function __construct(private readonly Table $table, ?Closure $clock = null)
    {
        $columns = $table->columns();
        $valueBytes = (int) substr($columns['value'] ?? '', strlen('string:'));
        if ($valueBytes < 1 || $columns !== self::columns($valueBytes)) {
            throw new Exception('A cache table needs the columns of Rapier\Cache\CacheTable::declare() (value string:N, '
                . 'number int, kind int, expires int; N the most bytes of a serialized value); this one has '
                . implode(', ', array_map(static fn (string $name, string $type): string => "$name $type",
                    array_keys($columns), $columns)));
        }
        $this->valueBytes = $valueBytes;
        $this->clock = $clock ?? static fn (): int => (int) (microtime(true) * 1000);
    }

    public function table(): Table
    {
        return $this->table;
    }

    /** The value of $key; $default if it has none or it expired. */
    public function get(string $key, mixed $default = null): mixed
    {
        $row = $this->live($this->rowKey($key));

        return $row === null ? $default : $this->decode($row);
    }

    /** Whether $key has a value that has not expired (null is a value). */
    public function has(string $key): bool
    {
        return $this->live($this->rowKey($key)) !== null;
    }

    /**
     * Stores $value for $seconds (0: until removed). False if it was not
     * stored: larger than the table's values once serialized (the key's old
     * value is removed, so that it is not served in its place), or the
     * table is full of entries that have not expired.
     */
    public function put(string $key, mixed $value, int $seconds): bool
    {
        $key = $this->rowKey($key);
        $row = $this->encode($value, $seconds);
        if ($row === null) {
            $this->table->delete($key);

            return false;
        }

        return $this->whenFull(function () use ($key, $row): bool {
            $this->table->set($key, $row);

            return true;
        });
    }

    /** put() only if $key has no value (or it expired), as one step: true if it stored it. */
    public function add(string $key, mixed $value, int $seconds): bool
    {
        $row = $this->encode($value, $seconds);

        return $row !== null && $this->addRow($this->rowKey($key), $row);
    }

    /**
     * Adds $by to the int value of $key and returns the sum, as one step;
     * a key with no value (or an expired one) counts from 0 and keeps its
     * new value until removed, one with a value keeps its expiry. A numeric
     * string counts as its int. False for any other value, for a sum that
     * would overflow, and when the table is full.
     */
    public function increment(string $key, int $by = 1): int|false
    {
        $key = $this->rowKey($key);

        return $this->whenFull(function () use ($key, $by): int|false {
            while (true) {
                $old = $this->table->get($key);
                if ($old === null) {
                    if ($this->table->add($key, $this->intRow($by, 0))) {
                        return $by;
                    }
                    continue;
                }
                $live = !$this->expired($old);
                $current = $live ? $this->intOf($old) : 0;
                if ($current === null || !is_int($sum = $current + $by)) {
                    return false;
                }
                if ($this->table->replace($key, $this->intRow($sum, $live ? $old['expires'] : 0), $old)) {
                    return $sum;
                }
            }
        });
    }

    /** Removes the value of $key; false if it had none. */
    public function forget(string $key): bool
    {
        return $this->table->delete($this->rowKey($key));
    }

    /** Removes every entry and lock. */
    public function flush(): void
    {
        foreach ($this->table as $key => $row) {
            $this->table->delete($key);
        }
    }

    /**
     * Takes the lock $name for $owner for $seconds (0: until released) if no
     * one holds it or its holder's time is up, as one step.
     *
     * @throws ValueError for an owner longer than the table's values
     */
    public function acquireLock(string $name, string $owner, int $seconds): bool
    {
        if (strlen($owner) > $this->valueBytes) {
            throw new ValueError("A lock owner must be at most $this->valueBytes bytes (the cache table's values), "
                . strlen($owner) . ' given');
        }

        return $this->addRow($this->rowKey($name), [
            'value' => $owner, 'number' => 0, 'kind' => self::KIND_LOCK, 'expires' => $this->expiry($seconds),
        ]);
    }

    /** Releases the lock $name if $owner holds it. */
    public function releaseLock(string $name, string $owner): bool
    {
        return strlen($owner) <= $this->valueBytes
            && $this->table->delete($this->rowKey($name), ['kind' => self::KIND_LOCK, 'value' => $owner]);
    }

    /** Releases the lock $name, whoever holds it. */
    public function forceReleaseLock(string $name): void
    {
        $this->table->delete($this->rowKey($name), ['kind' => self::KIND_LOCK]);
    }

    /** Who holds the lock $name; null if no one does (or their time is up). */
    public function lockOwner(string $name): ?string
    {
        $row = $this->live($this->rowKey($name));

        return $row !== null && $row['kind'] === self::KIND_LOCK ? $row['value'] : null;
    }

    /** @return array<string, string> */
    private static function columns(int $valueBytes): array
    {
        return ['value' => "string:$valueBytes", 'number' => 'int', 'kind' => 'int', 'expires' => 'int'];
    }

    /** Table keys are 1 to 64 bytes: others go by their digest, after a NUL byte that text keys do not start with. */
    private function rowKey(string $key): string
    {
        return $key !== '' && strlen($key) <= Table::KEY_MAX ? $key : "\0" . hash('sha256', $key, true);
    }

    /** @param array<string, int|string> $row */
    private function addRow(string $key, array $row): bool
    {
        return $this->whenFull(function () use ($key, $row): bool {
            while (true) {
                if ($this->table->add($key, $row)) {
                    return true;
                }
                $old = $this->table->get($key);
                if ($old !== null && !$this->expired($old)) {
                    return false;
                }
                if ($old !== null && $this->table->replace($key, $row, $old)) {
                    return true;
                }
                // Removed or changed since add(): look again.
            }
        });
    }

    /** The row of $key if it has not expired; an expired one is removed, unless it changed meanwhile. */
    private function live(string $key): ?array
    {
        $row = $this->table->get($key);
        if ($row !== null && $this->expired($row)) {
            $this->table->delete($key, $row);

            return null;
        }

        return $row;
    }

    /** @param array<string, int|string> $row */
    private function expired(array $row): bool
    {
        return $row['expires'] !== 0 && $row['expires'] <= ($this->clock)();
    }

    private function expiry(int $seconds): int
    {
        return $seconds > 0 ? ($this->clock)() + $seconds * 1000 : 0;
    }

    /** @return array<string, int|string>|null null if the value does not fit */
    private function encode(mixed $value, int $seconds): ?array
    {
        if (is_int($value)) {
            return $this->intRow($value, $this->expiry($seconds));
        }
        $serialized = serialize($value);
        if (strlen($serialized) > $this->valueBytes) {
            return null;
        }

        return ['value' => $serialized, 'number' => 0, 'kind' => self::KIND_SERIALIZED, 'expires' => $this->expiry($seconds)];
    }

    /** @return array<string, int|string> */
    private function intRow(int $value, int $expires): array
    {
        return ['value' => '', 'number' => $value, 'kind' => self::KIND_INT, 'expires' => $expires];
    }

    /** @param array<string, int|string> $row */
    private function decode(array $row): mixed
    {
        return match ($row['kind']) {
            self::KIND_INT => $row['number'],
            self::KIND_LOCK => $row['value'],
            default => unserialize($row['value']),
        };
    }

    /**
     * The int a row counts as for increment(); null if it is not one.
     *
     * @param array<string, int|string> $row
     */
    private function intOf(array $row): ?int
    {
        if ($row['kind'] === self::KIND_INT) {
            return $row['number'];
        }
        $value = $row['kind'] === self::KIND_SERIALIZED ? unserialize($row['value']) : null;
        if (is_string($value) && preg_match('/^-?\d+$/', $value) === 1) {
            $int = filter_var($value, FILTER_VALIDATE_INT);

            return $int === false ? null : $int;
        }

        return null;
    }

    /**
     * Runs $write; if the table is full, removes the expired entries and
     * runs it once more. False if it is still full.
     *
     * @template T
     * @param Closure(): T $write
     * @return T|false
     */
    private function whenFull(Closure $write): mixed
    {
        try {
            return $write();
        } catch (TableFullException) {
            if (!$this->sweep()) {
                return false;
            }
            try {
                return $write();
            } catch (TableFullException) {
                return false;
            }
        }
    }

    /** Removes the expired entries, at most once a second; whether it removed any. */
    private function sweep(): bool
    {
        $second = intdiv(($this->clock)(), 1000);
        if ($second === $this->sweptAt) {
            return false;
        }
        $this->sweptAt = $second;
        $removed = 0;
        foreach ($this->table as $key => $row) {
            if ($this->expired($row) && $this->table->delete($key, $row)) {
                $removed++;
            }
        }

        return $removed > 0;
    }
}
