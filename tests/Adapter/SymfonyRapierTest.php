<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/** tests/apps/symfony served by Rapier with its framework adapter. */
final class SymfonyRapierTest extends AppContract
{
    protected static function app(): string
    {
        return 'symfony';
    }

    protected static function mode(): string
    {
        return 'rapier';
    }
}
