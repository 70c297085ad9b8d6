<?php

declare(strict_types=1);

namespace Rapier\App;

use Rapier\Adapter\Adapter;
use Rapier\Adapter\CallableAdapter;
use Rapier\Adapter\Psr15Adapter;
use Rapier\Adapter\RequiresHttp2;
use Rapier\Grpc\Server as GrpcServer;
use Throwable;

/**
 * Turns APP (a PHP file that returns the application, or a framework
 * project directory) into the Adapter that serves it. Loading only builds
 * the application; booting it is the Adapter's boot(), once per worker.
 */
final class AppLoader
{
    private const EXPECTED = 'a callable(Request, Response), a PSR-15 RequestHandlerInterface, '
        . 'a Laravel or Lumen application, a Symfony HttpKernelInterface or a Slim\App';

    /**
     * Framework objects, checked in this order (Slim\App is also callable,
     * so these come before the callable test), with their adapter classes.
     */
    private const FRAMEWORKS = [
        'Laravel\Lumen\Application' => ['a Lumen application', 'Rapier\Adapter\LumenAdapter'],
        'Illuminate\Contracts\Foundation\Application' => ['a Laravel application', 'Rapier\Adapter\LaravelAdapter'],
        'Symfony\Component\HttpKernel\HttpKernelInterface' => ['a Symfony kernel', 'Rapier\Adapter\SymfonyAdapter'],
        'Slim\App' => ['a Slim app', 'Rapier\Adapter\SlimAdapter'],
    ];

    private const PSR15 = 'Psr\Http\Server\RequestHandlerInterface';
    private const SLIM_ADAPTER = 'Rapier\Adapter\SlimAdapter';

    /** @throws AppException with a one-line message */
    public static function load(string $app): Adapter
    {
        if (!file_exists($app)) {
            throw new AppException("APP not found: $app");
        }
        $value = is_dir($app) ? self::loadDirectory(rtrim($app, '/')) : self::requireFile($app);

        return self::adapt($value, $app, is_dir($app) ? rtrim($app, '/') : dirname($app));
    }

    /** What kind of app an adapter serves, for banners: "callable", "PSR-15", "Laravel"... */
    public static function describe(Adapter $adapter): string
    {
        return match (true) {
            $adapter instanceof CallableAdapter => 'callable',
            $adapter instanceof Psr15Adapter => 'PSR-15',
            $adapter instanceof GrpcServer => 'gRPC',
            default => preg_replace('/Adapter$/', '', substr(strrchr('\\' . get_class($adapter), '\\'), 1)),
        };
    }

    /**
     * Whether requests must run one at a time in each worker: the framework
     * adapters rely on process-wide state (PHP's header list, superglobals,
     * the container), which two requests in flight would share. A gRPC
     * server keeps its per-call state in each call's Context.
     */
    public static function isSerial(Adapter $adapter): bool
    {
        return !$adapter instanceof CallableAdapter && !$adapter instanceof Psr15Adapter && !$adapter instanceof GrpcServer;
    }

    /** Whether the app's clients speak only HTTP/2 (gRPC): `rapier serve` then turns http2 on. */
    public static function requiresHttp2(Adapter $adapter): bool
    {
        return $adapter instanceof RequiresHttp2;
    }

    /**
     * Whether the app reads request bodies while they arrive: a gRPC
     * server, whose calls may stream both ways at once, so a method must
     * have a client's first message before the client sends the next.
     * `rapier serve` then turns request_buffering off.
     */
    public static function readsBodyAsItArrives(Adapter $adapter): bool
    {
        return $adapter instanceof GrpcServer;
    }

    /**
     * $baseDir: the app's directory, for adapters that take it second
     * (SlimAdapter resets static state of the classes declared under it).
     *
     * @throws AppException
     */
    public static function adapt(mixed $value, string $app, ?string $baseDir = null): Adapter
    {
        if ($value instanceof Adapter) {
            return $value;
        }
        if (is_object($value)) {
            foreach (self::FRAMEWORKS as $type => [$what, $adapter]) {
                if ($value instanceof $type) {
                    if (!class_exists($adapter)) {
                        throw new AppException("$app returned $what, but $adapter is not available");
                    }

                    return $adapter === self::SLIM_ADAPTER ? new $adapter($value, $baseDir) : new $adapter($value);
                }
            }
            if (interface_exists(self::PSR15, false) && $value instanceof \Psr\Http\Server\RequestHandlerInterface) {
                return new Psr15Adapter($value);
            }
        }
        if (is_callable($value)) {
            return new CallableAdapter($value);
        }
        throw new AppException(sprintf('%s returned %s; expected %s', $app, self::what($value), self::EXPECTED));
    }

    private static function what(mixed $value): string
    {
        return match (true) {
            $value === 1 => 'nothing (no return statement)',
            $value === null => 'null',
            is_object($value) => 'an object of class ' . get_class($value),
            is_array($value) => 'an array',
            is_string($value) => 'a string',
            default => get_debug_type($value) . ' ' . var_export($value, true),
        };
    }

    /**
     * A project directory: Laravel or Lumen (bootstrap/app.php), an app.php
     * that returns the app, Symfony (public/index.php and src/Kernel.php:
     * the kernel is built as its front controller would), or an index.php
     * that returns the app. vendor/autoload.php is loaded first when present.
     */
    private static function loadDirectory(string $dir): mixed
    {
        if (is_file("$dir/vendor/autoload.php")) {
            self::requireFile("$dir/vendor/autoload.php", once: true);
        }
        foreach (['bootstrap/app.php', 'app.php'] as $name) {
            if (is_file("$dir/$name")) {
                return self::requireFile("$dir/$name");
            }
        }
        if (is_file("$dir/public/index.php") && is_file("$dir/src/Kernel.php")) {
            return SymfonyKernelFactory::create($dir);
        }
        if (is_file("$dir/index.php")) {
            return self::requireFile("$dir/index.php");
        }
        throw new AppException("$dir is not an app directory: found no bootstrap/app.php (Laravel, Lumen), "
            . 'public/index.php with src/Kernel.php (Symfony), app.php or index.php');
    }

    /** Requires $file in a scope of its own and returns what it returned. */
    private static function requireFile(string $file, bool $once = false): mixed
    {
        try {
            return $once ? (static fn (string $__file): mixed => require_once $__file)($file)
                : (static fn (string $__file): mixed => require $__file)($file);
        } catch (AppException $e) {
            throw $e;
        } catch (Throwable $e) {
            throw new AppException(self::loadFailure($file, $e), 0, $e);
        }
    }

    private static function loadFailure(string $file, Throwable $e): string
    {
        $message = sprintf('%s failed to load: %s: %s in %s:%d', $file, get_class($e),
            strtok($e->getMessage(), "\n"), $e->getFile(), $e->getLine());
        if (str_contains($e->getMessage(), 'Psr\Http\Server\\')) {
            $message .= ' (the PSR-15 interfaces come from the psr extension: php -d extension=psr.so)';
        }

        return $message;
    }
}
