<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/**
 * tests/apps/laravel served by nginx + php-fpm.
 *
 * @group php-fpm
 */
final class LaravelFpmTest extends AppContract
{
    use LaravelCases;

    protected static function app(): string
    {
        return 'laravel';
    }

    protected static function mode(): string
    {
        return 'fpm';
    }
}
