<?php

declare(strict_types=1);

namespace Rapier\Cache;

use Illuminate\Cache\CacheManager;
use Illuminate\Contracts\Container\Container;
use Illuminate\Support\Carbon;
use Rapier\App\Tables;

/**
 * Adds the cache driver `rapier` to a Laravel or Lumen application, as its
 * adapter boots it. A store of config/cache.php then uses it:
 *
 *     'rapier' => ['driver' => 'rapier', 'table' => 'cache'],
 *
 * with the table (`cache` if the store names none) declared in the config
 * file of `rapier serve` with CacheTable::declare(). The store's time is
 * Carbon's, so Carbon::setTestNow() moves it as it moves Laravel's.
 */
final class LaravelCacheDriver
{
    public static function register(Container $app): void
    {
        $extend = static function (CacheManager $manager): void {
            $manager->extend('rapier', function ($app, array $config) {
                /** @var CacheManager $this the callback is bound to the manager */
                $clock = static fn (): int => (int) Carbon::now()->getPreciseTimestamp(3);
                $table = new CacheTable(Tables::get($config['table'] ?? 'cache'), $clock);

                return $this->repository(new TableStore($table, $this->getPrefix($config)));
            });
        };
        if ($app->resolved('cache')) {
            $extend($app->make('cache'));
        } else {
            $app->afterResolving('cache', $extend);
        }
    }
}
