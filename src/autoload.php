<?php

/*
 * Class loading for Rapier's PHP library without Composer: Rapier\ maps to
 * this directory (PSR-4). Classes of the extension (Rapier\Http\Server,
 * Rapier\Coroutine...) are already defined and never reach this loader.
 */

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (!str_starts_with($class, 'Rapier\\')) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, 7)) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
