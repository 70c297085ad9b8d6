<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/**
 * tests/apps/symfony served by nginx + php-fpm.
 *
 * @group php-fpm
 */
final class SymfonyFpmTest extends AppContract
{
    protected static function app(): string
    {
        return 'symfony';
    }

    protected static function mode(): string
    {
        return 'fpm';
    }
}
