<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/** tests/apps/lumen served by Rapier with its framework adapter. */
final class LumenRapierTest extends AppContract
{
    protected static function app(): string
    {
        return 'lumen';
    }

    protected static function mode(): string
    {
        return 'rapier';
    }
}
