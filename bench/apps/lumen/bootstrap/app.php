<?php

/*
 * The Lumen application of the benchmark (Lumen 8 from Debian's
 * php-laravel-lumen-framework, loaded through Debian's autoloaders under
 * /usr/share/php): the same endpoints as bench/apps/plain, written the way a
 * Lumen app writes them (router, DB facade, Redis manager, JSON responses).
 * It answers the same bytes as the plain app, which the pre-check verifies.
 *
 * Returns the Application, as a Lumen project's bootstrap/app.php does:
 * public/index.php runs it under php-fpm, and a Rapier adapter may boot it
 * once per worker.
 */

declare(strict_types=1);

require_once '/usr/share/php/Laravel/Lumen/autoload.php';
require_once '/usr/share/php/Illuminate/Redis/autoload.php';

$app = new Laravel\Lumen\Application(dirname(__DIR__));

// Logs and caches go to the run's throwaway directory, never into the tree.
$app->useStoragePath(getenv('BENCH_LUMEN_STORAGE') ?: sys_get_temp_dir());

$app->withFacades();

$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, Laravel\Lumen\Exceptions\Handler::class);

$app->configure('app');
$app->configure('database');
$app->register(Illuminate\Redis\RedisServiceProvider::class);

$app->router->group([], function ($router): void {
    require __DIR__ . '/../routes/web.php';
});

return $app;
