<?php

/*
 * The application, as `rapier serve` and public/index.php load it. What the
 * app writes (sessions, compiled views, logs, uploads, Laravel's manifest
 * caches) goes to $RAPIER_APP_STORAGE, never into the source tree.
 */

require_once __DIR__ . '/../vendor/autoload.php';

$storage = getenv('RAPIER_APP_STORAGE') ?: sys_get_temp_dir() . '/rapier-app-laravel';
foreach (['framework/sessions', 'framework/views', 'framework/cache', 'logs', 'app/uploads'] as $dir) {
    if (!is_dir("$storage/$dir")) {
        mkdir("$storage/$dir", 0777, true);
    }
}
foreach (['SERVICES', 'PACKAGES', 'CONFIG', 'ROUTES', 'EVENTS'] as $cache) {
    $_SERVER["APP_{$cache}_CACHE"] = "$storage/framework/cache/" . strtolower($cache) . '.php';
}

$app = new Illuminate\Foundation\Application(dirname(__DIR__));
$app->useStoragePath($storage);

$app->singleton(Illuminate\Contracts\Http\Kernel::class, App\Http\Kernel::class);
$app->singleton(Illuminate\Contracts\Console\Kernel::class, Illuminate\Foundation\Console\Kernel::class);
$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, App\Exceptions\Handler::class);

return $app;
