<?php

declare(strict_types=1);

namespace Rapier\App;

use Throwable;

/**
 * A Symfony project directory's kernel, built the way its front controller
 * would: APP_ENV and APP_DEBUG from the environment (and from .env through
 * symfony/dotenv when that is installed), then `new Kernel($env, $debug)`.
 * public/index.php itself is not run: it would handle a request at once.
 */
final class SymfonyKernelFactory
{
    /** @throws AppException */
    public static function create(string $dir): object
    {
        $class = self::kernelClass("$dir/src/Kernel.php");
        if (is_file("$dir/.env") && class_exists('Symfony\Component\Dotenv\Dotenv')) {
            (new \Symfony\Component\Dotenv\Dotenv())->bootEnv("$dir/.env");
        }
        $env = self::env('APP_ENV') ?? 'prod';
        $debug = self::env('APP_DEBUG');
        try {
            if (!class_exists($class)) {
                require_once "$dir/src/Kernel.php";
            }

            return new $class($env, $debug === null ? $env !== 'prod' : filter_var($debug, FILTER_VALIDATE_BOOL));
        } catch (Throwable $e) {
            throw new AppException(sprintf('%s: cannot create %s: %s', $dir, $class, strtok($e->getMessage(), "\n")), 0, $e);
        }
    }

    private static function kernelClass(string $file): string
    {
        $code = (string) file_get_contents($file);
        if (preg_match('/^\s*namespace\s+([A-Za-z0-9_\\\\]+)\s*;/m', $code, $m) === 1) {
            return $m[1] . '\Kernel';
        }

        return 'Kernel';
    }

    private static function env(string $name): ?string
    {
        $value = $_SERVER[$name] ?? $_ENV[$name] ?? getenv($name);

        return is_string($value) && $value !== '' ? $value : null;
    }
}
