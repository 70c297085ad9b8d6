<?php

/*
 * PHPUnit bootstrap: the suite needs the Rapier extension and maps
 * Rapier\Tests\ to this directory. Run it through `make phpunit` (or
 * `make test`), which loads the module and starts MariaDB and Redis.
 */

declare(strict_types=1);

if (!extension_loaded('rapier')) {
    fwrite(STDERR, "The rapier extension is not loaded: run `make phpunit`, or php -d extension=ext/modules/rapier.so\n");
    exit(1);
}

require dirname(__DIR__) . '/src/autoload.php';

spl_autoload_register(static function (string $class): void {
    $prefix = 'Rapier\\Tests\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
