<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use PHPUnit\Framework\SkippedTestError;

/**
 * psr.so, the extension that holds the PSR-15 interfaces on Debian, as
 * scripts/psr-ext.sh unpacks it (downloaded with apt-get, never
 * installed). Tests that need it skip, with the reason, when it cannot
 * be had.
 */
final class PsrExtension
{
    private static ?string $path = null;

    /** @throws SkippedTestError */
    public static function path(): string
    {
        if (self::$path !== null) {
            return self::$path;
        }
        $script = dirname(__DIR__, 2) . '/scripts/psr-ext.sh';
        $out = [];
        exec(escapeshellarg($script) . ' 2>&1', $out, $status);
        $last = (string) end($out);
        if ($status !== 0 || !is_file($last)) {
            throw new SkippedTestError('psr.so (php8.2-psr) is not available: ' . ($last === '' ? "$script failed" : $last));
        }

        return self::$path = $last;
    }

    /** @return list<string> the interpreter options that load it */
    public static function phpOptions(): array
    {
        return ['-d', 'extension=' . self::path()];
    }
}
