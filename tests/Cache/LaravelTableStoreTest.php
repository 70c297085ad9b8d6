<?php

declare(strict_types=1);

namespace Rapier\Tests\Cache;

use Illuminate\Cache\CacheManager;
use Illuminate\Cache\RateLimiter;
use Illuminate\Cache\Repository;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Support\Carbon;
use PHPUnit\Framework\TestCase;
use Rapier\App\Tables;
use Rapier\Cache\CacheTable;
use Rapier\Cache\LaravelCacheDriver;
use Rapier\Cache\TableStore;
use Rapier\Exception;

/**
 * The driver `rapier` in Laravel's own CacheManager, Repository,
 * RateLimiter and locks, over a real shared table; time is Carbon's.
 */
final class LaravelTableStoreTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        require_once 'Illuminate/autoload.php';
    }

    protected function setUp(): void
    {
        Carbon::setTestNow(Carbon::createFromTimestamp(1_700_000_000));
        Tables::create(['cache' => CacheTable::declare(rows: 100, valueBytes: 512)]);
    }

    protected function tearDown(): void
    {
        Carbon::setTestNow();
        Tables::create([]);
    }

    public function testTheDriverMakesAStoreOfTheNamedTableWithThePrefix(): void
    {
        $repository = $this->manager()->store('rapier');

        $this->assertInstanceOf(TableStore::class, $repository->getStore());
        $this->assertSame('app_', $repository->getStore()->getPrefix());
        $repository->put('greeting', 'hello', 60);
        $this->assertSame(serialize('hello'), Tables::get('cache')->get('app_greeting', 'value'), 'the row of the prefixed key');
    }

    public function testTheDriverIsAddedToAManagerAlreadyMade(): void
    {
        $app = $this->container();
        $app->make('cache');
        LaravelCacheDriver::register($app);

        $this->assertInstanceOf(TableStore::class, $app->make('cache')->store('rapier')->getStore());
    }

    public function testAStoreWithoutItsTableSaysWhatToDeclare(): void
    {
        Tables::create([]);

        $this->expectException(Exception::class);
        $this->expectExceptionMessage("No table 'cache': no table is declared (declare it under 'tables' in the config file");
        $this->manager()->store('rapier');
    }

    public function testTheRepositoryWorksAsWithAnyStore(): void
    {
        $cache = $this->manager()->store('rapier');

        $this->assertSame('computed', $cache->remember('r', 60, static fn (): string => 'computed'));
        $this->assertSame('computed', $cache->remember('r', 60, static fn (): string => 'again'));
        $this->assertTrue($cache->add('a', 1, 60));
        $this->assertFalse($cache->add('a', 2, 60));
        $this->assertSame(5, $cache->increment('a', 4));
        $this->assertSame(3, $cache->decrement('a', 2));
        $cache->putMany(['m1' => 'one', 'm2' => ['two']], 60);
        $this->assertSame(['m1' => 'one', 'm2' => ['two'], 'm3' => null], $cache->many(['m1', 'm2', 'm3']));
        $this->assertTrue($cache->forever('f', 'kept'));
        $this->assertSame('one', $cache->pull('m1'));
        $this->assertFalse($cache->has('m1'));

        Carbon::setTestNow(Carbon::now()->addSeconds(60));
        $this->assertNull($cache->get('r'), 'expired after 60 s');
        $this->assertSame('kept', $cache->get('f'));
        $this->assertTrue($cache->add('a', 'new', 60), 'added over the expired entry');

        $this->assertFalse($cache->put('big', str_repeat('x', 600), 60), 'larger than the table\'s 512 bytes');
        $this->assertSame('fallback', $cache->get('big', 'fallback'));

        $this->assertTrue($cache->flush());
        $this->assertSame(0, count(Tables::get('cache')));
    }

    public function testTheRateLimiterCountsAndReleases(): void
    {
        $limiter = new RateLimiter($this->manager()->store('rapier'));

        for ($i = 0; $i < 3; $i++) {
            $this->assertFalse($limiter->tooManyAttempts('login', 3));
            $limiter->hit('login', 10);
        }
        $this->assertTrue($limiter->tooManyAttempts('login', 3));
        $this->assertSame(10, $limiter->availableIn('login'));
        Carbon::setTestNow(Carbon::now()->addSeconds(10));
        $this->assertFalse($limiter->tooManyAttempts('login', 3), 'the window is over');
        $this->assertSame(1, $limiter->hit('login', 10));
    }

    public function testLocksHaveOneOwner(): void
    {
        $cache = $this->manager()->store('rapier');
        $first = $cache->lock('report', 10);
        $second = $cache->lock('report', 10);

        $this->assertTrue($first->get());
        $this->assertFalse($second->get());
        $this->assertSame('done', $cache->lock('other', 10)->get(static fn (): string => 'done'));
        $this->assertFalse($second->release(), 'not its owner');
        $restored = $cache->restoreLock('report', $first->owner());
        $this->assertTrue($restored->release(), 'a lock restored with its owner releases it');
        $this->assertTrue($second->get());

        Carbon::setTestNow(Carbon::now()->addSeconds(10));
        $this->assertTrue($first->get(), 'the holder\'s time is up');
        $second->forceRelease();
        $this->assertTrue($cache->lock('report', 10)->get());

        $this->expectException(LockTimeoutException::class);
        $second->block(0);
    }

    private function manager(): CacheManager
    {
        $app = $this->container();
        LaravelCacheDriver::register($app);

        return $app->make('cache');
    }

    private function container(): Container
    {
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => 'rapier',
            'stores' => ['rapier' => ['driver' => 'rapier', 'table' => 'cache']],
            'prefix' => 'app_',
        ]]));
        $app->singleton('cache', static fn (Container $app): CacheManager => new CacheManager($app));

        return $app;
    }
}
