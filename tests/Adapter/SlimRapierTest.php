<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/** tests/apps/slim served by Rapier with its framework adapter. */
final class SlimRapierTest extends AppContract
{
    protected static function app(): string
    {
        return 'slim';
    }

    protected static function mode(): string
    {
        return 'rapier';
    }
}
