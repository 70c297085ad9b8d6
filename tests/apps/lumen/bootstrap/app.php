<?php

/*
 * The application, as `rapier serve` and public/index.php load it. What the
 * app writes (sessions, logs, uploads) goes to $RAPIER_APP_STORAGE, never
 * into the source tree.
 */

require_once __DIR__ . '/../vendor/autoload.php';

$storage = getenv('RAPIER_APP_STORAGE') ?: sys_get_temp_dir() . '/rapier-app-lumen';
foreach (['framework/sessions', 'framework/views', 'logs', 'app/uploads'] as $dir) {
    if (!is_dir("$storage/$dir")) {
        mkdir("$storage/$dir", 0777, true);
    }
}

date_default_timezone_set('UTC');

$app = new Laravel\Lumen\Application(dirname(__DIR__));
$app->useStoragePath($storage);

$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, App\Exceptions\Handler::class);
$app->singleton(Illuminate\Contracts\Console\Kernel::class, Laravel\Lumen\Console\Kernel::class);

$app->configure('app');
$app->configure('session');

$app->middleware([
    Illuminate\Session\Middleware\StartSession::class,
]);

$app->register(Illuminate\Session\SessionServiceProvider::class);
$app->alias('session', Illuminate\Session\SessionManager::class);
$app->register(App\Providers\AppServiceProvider::class);

$app->router->group([], function ($router) {
    require __DIR__ . '/../routes/web.php';
});

return $app;
