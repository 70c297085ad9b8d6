<?php

/*
 * Stands in for Composer's vendor/autoload.php: Debian's php-slim (Slim 3)
 * autoloader, symfony/var-dumper (dump() and dd(), as a require-dev would
 * bring) and App\ mapped to src/.
 */

declare(strict_types=1);

require_once 'Slim/autoload.php';
require_once 'Symfony/Component/VarDumper/autoload.php';

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = dirname(__DIR__) . '/src/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
