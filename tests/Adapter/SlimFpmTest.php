<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/**
 * tests/apps/slim served by nginx + php-fpm.
 *
 * @group php-fpm
 */
final class SlimFpmTest extends AppContract
{
    protected static function app(): string
    {
        return 'slim';
    }

    protected static function mode(): string
    {
        return 'fpm';
    }
}
