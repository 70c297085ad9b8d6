<?php

/*
 * Class loading for Rapier's PHP library without Composer: Rapier\ maps to
 * this directory (PSR-4). Classes of the extension (Rapier\Http\Server,
 * Rapier\Coroutine...) are already defined and never reach this loader.
 *
 * The protobuf runtime Rapier\Grpc uses comes from Debian's
 * php-google-protobuf when nothing else provides it: that package ships
 * its classes under /usr/share/php without an autoloader. Composer's
 * loader (google/protobuf) is registered in front of this one, and the
 * protobuf C extension defines the classes itself, so either wins.
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

spl_autoload_register(static function (string $class): void {
    if (!str_starts_with($class, 'Google\\Protobuf\\') && !str_starts_with($class, 'GPBMetadata\\Google\\Protobuf\\')) {
        return;
    }
    $file = '/usr/share/php/' . str_replace('\\', '/', $class) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
