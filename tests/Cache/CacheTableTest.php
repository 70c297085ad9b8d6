<?php

declare(strict_types=1);

namespace Rapier\Tests\Cache;

use PHPUnit\Framework\TestCase;
use Rapier\Cache\CacheTable;
use Rapier\Exception;
use Rapier\Table;
use ValueError;

/** CacheTable over a real shared Table, on a clock the test moves; the last test races forked processes. */
final class CacheTableTest extends TestCase
{
    private int $now = 1_700_000_000_000;

    public function testValuesKeepTheirTypes(): void
    {
        $cache = $this->cache();
        $values = ['int' => 42, 'negative' => -7, 'string' => 'hello', 'numeric' => '5', 'float' => 1.5,
            'array' => ['a' => [1, 2]], 'object' => new \ArrayObject([3]), 'false' => false, 'empty' => ''];
        foreach ($values as $key => $value) {
            $this->assertTrue($cache->put($key, $value, 60), $key);
        }
        foreach ($values as $key => $value) {
            $this->assertEquals($value, $cache->get($key), $key);
            $this->assertSame(get_debug_type($value), get_debug_type($cache->get($key)), $key);
        }
        $this->assertNull($cache->get('missing'));
        $this->assertTrue($cache->forget('int'));
        $this->assertFalse($cache->forget('int'));
        $this->assertNull($cache->get('int'));
    }

    public function testEntriesExpireToTheMillisecond(): void
    {
        $cache = $this->cache();
        $cache->put('short', 'v', 2);
        $cache->put('forever', 'f', 0);
        $this->now += 1999;
        $this->assertSame('v', $cache->get('short'));
        $this->now += 1;
        $this->assertNull($cache->get('short'));
        $this->assertSame(1, count($cache->table()), 'the expired row is removed as it is read');
        $this->now += 10 ** 9;
        $this->assertSame('f', $cache->get('forever'));
    }

    public function testAddStoresOnlyWhereThereIsNoLiveValue(): void
    {
        $cache = $this->cache();
        $this->assertTrue($cache->add('k', 'first', 1));
        $this->assertFalse($cache->add('k', 'second', 1));
        $this->assertSame('first', $cache->get('k'));
        $this->now += 1000;
        $this->assertTrue($cache->add('k', 'third', 1), 'over an expired value');
        $this->assertSame('third', $cache->get('k'));
    }

    public function testIncrementCountsAndKeepsTheExpiry(): void
    {
        $cache = $this->cache();
        $this->assertSame(1, $cache->increment('new'));
        $this->assertSame(11, $cache->increment('new', 10));
        $this->assertSame(8, $cache->increment('new', -3));
        $this->now += 10 ** 9;
        $this->assertSame(8, $cache->get('new'), 'a counter made by increment() does not expire');

        $cache->put('timed', 5, 2);
        $this->assertSame(6, $cache->increment('timed'));
        $this->now += 2000;
        $this->assertNull($cache->get('timed'), 'increment() kept the expiry');
        $cache->put('timed', 5, 2);
        $this->now += 2000;
        $this->assertSame(1, $cache->increment('timed'), 'an expired value counts from 0');

        $cache->put('numeric', '41', 60);
        $this->assertSame(42, $cache->increment('numeric'));
        $this->assertSame(42, $cache->get('numeric'));
        foreach (['text' => 'abc', 'float' => 1.5, 'array' => [1], 'leading zero' => '07'] as $key => $value) {
            $cache->put($key, $value, 60);
            $this->assertFalse($cache->increment($key), $key);
            $this->assertEquals($value, $cache->get($key), "$key is left as it was");
        }
        $cache->put('max', PHP_INT_MAX, 60);
        $this->assertFalse($cache->increment('max'));
        $this->assertSame(PHP_INT_MAX, $cache->get('max'));
    }

    public function testAValueTooLargeIsNotStoredAndTheOldOneGoes(): void
    {
        $cache = $this->cache(valueBytes: 100);
        $this->assertTrue($cache->put('k', str_repeat('a', 50), 60));
        $this->assertFalse($cache->put('k', str_repeat('a', 200), 60));
        $this->assertNull($cache->get('k'), 'not the old value in place of the new');
        $this->assertFalse($cache->add('k', str_repeat('a', 200), 60));
        $this->assertTrue($cache->put('k', 123456789, 60), 'an int needs no value bytes');
    }

    public function testLongKeysGoByTheirDigest(): void
    {
        $cache = $this->cache();
        $long = str_repeat('k', 300);
        $cache->put($long . '1', 'one', 60);
        $cache->put($long . '2', 'two', 60);
        $cache->put('', 'empty', 60);
        $this->assertSame('one', $cache->get($long . '1'));
        $this->assertSame('two', $cache->get($long . '2'));
        $this->assertSame('empty', $cache->get(''));
        $this->assertSame(2, $cache->increment($long, 2));
    }

    public function testAFullTableMakesRoomFromExpiredEntriesOnly(): void
    {
        $cache = $this->cache(rows: 3);
        $cache->put('a', 1, 1);
        $cache->put('b', 2, 1);
        $cache->put('c', 3, 10);
        $this->assertFalse($cache->put('d', 4, 10), 'full of live entries');
        $this->assertFalse($cache->add('d', 4, 10));
        $this->assertFalse($cache->increment('d'));
        $this->assertTrue($cache->put('a', 5, 1), 'an existing key is still written');
        $this->now += 1000;
        $this->assertTrue($cache->put('d', 4, 10), 'the expired a and b make room');
        $this->assertSame(2, count($cache->table()));
        $this->assertSame(3, $cache->get('c'));
        $cache->flush();
        $this->assertSame(0, count($cache->table()));
    }

    public function testLocksHaveOneHolderUntilReleasedOrTimedOut(): void
    {
        $cache = $this->cache();
        $this->assertTrue($cache->acquireLock('job', 'alice', 10));
        $this->assertFalse($cache->acquireLock('job', 'bob', 10));
        $this->assertSame('alice', $cache->lockOwner('job'));
        $this->assertFalse($cache->releaseLock('job', 'bob'));
        $this->assertTrue($cache->releaseLock('job', 'alice'));
        $this->assertNull($cache->lockOwner('job'));
        $this->assertFalse($cache->releaseLock('job', 'alice'));

        $this->assertTrue($cache->acquireLock('job', 'alice', 10));
        $this->now += 10_000;
        $this->assertNull($cache->lockOwner('job'), 'its time is up');
        $this->assertTrue($cache->acquireLock('job', 'bob', 0));
        $this->assertFalse($cache->releaseLock('job', 'alice'));
        $this->now += 10 ** 9;
        $this->assertSame('bob', $cache->lockOwner('job'), 'held until released');
        $cache->forceReleaseLock('job');
        $this->assertNull($cache->lockOwner('job'));

        $cache->put('value', 'x', 60);
        $cache->forceReleaseLock('value');
        $this->assertSame('x', $cache->get('value'), 'forceReleaseLock() takes only a lock');

        $this->expectException(ValueError::class);
        $this->expectExceptionMessage('A lock owner must be at most 10000 bytes (the cache table\'s values), 10001 given');
        $cache->acquireLock('job', str_repeat('o', 10001), 1);
    }

    public function testATableOfOtherColumnsIsRefused(): void
    {
        $this->expectException(Exception::class);
        $this->expectExceptionMessage('A cache table needs the columns of Rapier\Cache\CacheTable::declare() (value string:N, '
            . 'number int, kind int, expires int; N the most bytes of a serialized value); this one has value string:10, hits int');
        new CacheTable(new Table(10, ['value' => 'string:10', 'hits' => 'int']));
    }

    public function testDeclareIsWhatTheConfigFileTakes(): void
    {
        $this->assertSame(['size' => 500, 'columns' => ['value' => 'string:64', 'number' => 'int', 'kind' => 'int',
            'expires' => 'int']], CacheTable::declare(rows: 500, valueBytes: 64));
        $this->assertSame(1000, CacheTable::declare()['size']);
    }

    /**
     * Four processes at once: every increment() counts, each add() of a key
     * has one winner, and a lock admits one holder at a time (a
     * read-then-write of a value under it loses no update).
     */
    public function testForkedProcessesRaceWithoutLosingAnUpdate(): void
    {
        if (!function_exists('pcntl_fork')) {
            $this->markTestSkipped('needs pcntl');
        }
        $declared = CacheTable::declare(rows: 1000, valueBytes: 64);
        $table = new Table($declared['size'], $declared['columns']);
        $cache = new CacheTable($table);
        $children = 4;
        $pids = [];
        for ($child = 0; $child < $children; $child++) {
            $pid = pcntl_fork();
            $this->assertNotSame(-1, $pid);
            if ($pid === 0) {
                $this->raceInChild($cache, "child$child");
            }
            $pids[] = $pid;
        }
        foreach ($pids as $pid) {
            pcntl_waitpid($pid, $status);
            $this->assertTrue(pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0, 'a child failed');
        }

        $this->assertSame($children * 1000, $cache->get('hits'));
        $this->assertSame(200, $cache->get('wins'), 'one winner for each of 200 keys');
        $this->assertSame($children * 100, $cache->get('guarded'));
        $this->assertNull($cache->lockOwner('lock'));
    }

    /** Never returns: ends the process without PHPUnit's shutdown. */
    private function raceInChild(CacheTable $cache, string $owner): never
    {
        $ok = true;
        try {
            for ($i = 0; $i < 1000; $i++) {
                $cache->increment('hits');
            }
            for ($i = 0; $i < 200; $i++) {
                if ($cache->add("once$i", $owner, 60)) {
                    $cache->increment('wins');
                }
            }
            for ($i = 0; $i < 100; $i++) {
                while (!$cache->acquireLock('lock', $owner, 60)) {
                    usleep(50);
                }
                $seen = $cache->get('guarded') ?? 0;
                $ok = $cache->put('guarded', $seen + 1, 0) && $ok;
                $ok = $cache->releaseLock('lock', $owner) && $ok;
            }
        } catch (\Throwable $e) {
            fwrite(STDERR, "$owner: $e\n");
            $ok = false;
        }
        pcntl_exec($ok ? '/bin/true' : '/bin/false');
        exit(1);
    }

    private function cache(int $rows = 100, int $valueBytes = 10000): CacheTable
    {
        $declared = CacheTable::declare($rows, $valueBytes);

        return new CacheTable(new Table($declared['size'], $declared['columns']), fn (): int => $this->now);
    }
}
