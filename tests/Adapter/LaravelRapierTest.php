<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/** tests/apps/laravel served by Rapier with its framework adapter. */
final class LaravelRapierTest extends AppContract
{
    use LaravelCases;

    protected static function app(): string
    {
        return 'laravel';
    }

    protected static function mode(): string
    {
        return 'rapier';
    }
}
