<?php

/*
 * Stands in for Composer's vendor/autoload.php: Debian's
 * php-laravel-lumen-framework autoloader (under /usr/share/php, on PHP's
 * include_path) and App\ mapped to app/. Lumen's autoloader does not pull
 * in the session and cookie components, which this app registers.
 */

declare(strict_types=1);

require_once 'Laravel/Lumen/autoload.php';
require_once 'Illuminate/Session/autoload.php';
require_once 'Illuminate/Cookie/autoload.php';

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = dirname(__DIR__) . '/app/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
