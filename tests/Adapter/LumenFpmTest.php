<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/**
 * tests/apps/lumen served by nginx + php-fpm.
 *
 * @group php-fpm
 */
final class LumenFpmTest extends AppContract
{
    protected static function app(): string
    {
        return 'lumen';
    }

    protected static function mode(): string
    {
        return 'fpm';
    }
}
