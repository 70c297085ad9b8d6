<?php

declare(strict_types=1);

namespace Rapier\Tests\Cache;

use DateInterval;
use PHPUnit\Framework\TestCase;
use Psr\SimpleCache\InvalidArgumentException as PsrInvalidArgument;
use Rapier\Cache\CacheTable;
use Rapier\Cache\SimpleCache;
use Rapier\Table;
use Symfony\Component\Cache\Adapter\Psr16Adapter;
use Symfony\Contracts\Cache\ItemInterface;

/** The PSR-16 face of a CacheTable, alone and under Symfony's Psr16Adapter, on a real shared table. */
final class SimpleCacheTest extends TestCase
{
    private int $now = 1_700_000_000_000;

    private ?Table $table = null;

    public static function setUpBeforeClass(): void
    {
        require_once 'Psr/SimpleCache/autoload.php';
        require_once 'Symfony/Component/Cache/autoload.php';
    }

    public function testTheInterfaceAsPsr16SaysIt(): void
    {
        $cache = $this->simple(defaultTtl: 0);

        $this->assertSame('fallback', $cache->get('k', 'fallback'));
        $this->assertTrue($cache->set('k', ['v' => 1]));
        $this->assertSame(['v' => 1], $cache->get('k'));
        $this->assertTrue($cache->set('null', null));
        $this->assertTrue($cache->has('null'), 'null is a value');
        $this->assertNull($cache->get('null', 'fallback'));
        $this->assertTrue($cache->delete('k'));
        $this->assertTrue($cache->delete('k'), 'deleting what is not there is no error');
        $this->assertFalse($cache->has('k'));

        $this->assertTrue($cache->setMultiple(['a' => 1, 2 => 'two']));
        $this->assertSame(['a' => 1, '2' => 'two', 'c' => 'd'], $cache->getMultiple(new \ArrayIterator(['a', '2', 'c']), 'd'));
        $this->assertTrue($cache->deleteMultiple(['a']));
        $this->assertFalse($cache->has('a'));
        $this->assertTrue($cache->clear());
        $this->assertFalse($cache->has('2'));
    }

    public function testTtls(): void
    {
        $cache = $this->simple(defaultTtl: 30);

        $cache->set('default', 1);
        $cache->set('int', 1, 10);
        $cache->set('interval', 1, new DateInterval('PT20S'));
        $cache->set('gone', 1);
        $this->assertTrue($cache->set('gone', 1, 0), 'a TTL of 0 removes the item');
        $this->assertFalse($cache->has('gone'));
        $cache->set('negative', 1);
        $cache->set('negative', 1, -5);
        $this->assertFalse($cache->has('negative'));

        $this->now += 10_000;
        $this->assertSame([false, true, true], [$cache->has('int'), $cache->has('interval'), $cache->has('default')]);
        $this->now += 10_000;
        $this->assertSame([false, true], [$cache->has('interval'), $cache->has('default')]);
        $this->now += 10_000;
        $this->assertFalse($cache->has('default'));
    }

    public function testKeysAndTtlsPsr16RefusesAreRefused(): void
    {
        $cache = $this->simple();
        $calls = [
            'A cache key must be a non-empty string without any of {}()/\@:, "a:b" given' => fn () => $cache->get('a:b'),
            'A cache key must be a non-empty string without any of {}()/\@:, "" given' => fn () => $cache->set('', 1),
            'A cache key must be a non-empty string without any of {}()/\@:, int given' => fn () => $cache->has(5),
            'A cache key must be a non-empty string without any of {}()/\@:, "x{y}" given' => fn () => $cache->getMultiple(['ok', 'x{y}']),
            'The keys must be an array or a Traversable, string given' => fn () => $cache->deleteMultiple('abc'),
            'The values must be an array or a Traversable of key => value, string given' => fn () => $cache->setMultiple('abc'),
            'A TTL must be null, an int of seconds or a DateInterval, float given' => fn () => $cache->set('k', 1, 1.5),
        ];
        foreach ($calls as $message => $call) {
            try {
                $call();
                $this->fail("no exception: $message");
            } catch (PsrInvalidArgument $e) {
                $this->assertSame($message, $e->getMessage());
                $this->assertInstanceOf(\InvalidArgumentException::class, $e);
            }
        }
        $this->assertFalse($cache->has('k'));
    }

    public function testSymfonyCachePoolsOverIt(): void
    {
        $pool = new Psr16Adapter($this->simple());
        $computed = 0;
        $compute = static function (ItemInterface $item) use (&$computed): string {
            $item->expiresAfter(60);
            $computed++;

            return 'report';
        };

        $this->assertSame('report', $pool->get('daily.report', $compute));
        $this->assertSame('report', $pool->get('daily.report', $compute));
        $this->assertSame(1, $computed);
        $item = $pool->getItem('counter')->set(41);
        $this->assertTrue($pool->save($item));
        $this->assertSame(41, (new Psr16Adapter($this->simple()))->getItem('counter')->get(), 'another pool over the table');
        $this->assertTrue($pool->deleteItem('counter'));
        $this->assertFalse($pool->hasItem('counter'));
    }

    private function simple(int $defaultTtl = 0): SimpleCache
    {
        $declared = CacheTable::declare(rows: 100, valueBytes: 1024);
        $this->table ??= new Table($declared['size'], $declared['columns']);

        return new SimpleCache(new CacheTable($this->table, fn (): int => $this->now), $defaultTtl);
    }
}
