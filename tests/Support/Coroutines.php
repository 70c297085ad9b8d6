<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use Rapier\Runtime;
use Throwable;

use function Rapier\go;
use function Rapier\run;

/**
 * Runs one callable in many coroutines and hands the outcome back to the
 * test. Assertions never run inside a coroutine: a failure thrown there would
 * end that coroutine, not the test. Each coroutine's result or Throwable is
 * collected instead, and the test asserts after Rapier\run() returned.
 */
final class Coroutines
{
    /**
     * Starts $fn($i) for $i in [0, $count) in one Rapier\run(), with runtime
     * hooks on or off, and rethrows the first Throwable a coroutine let escape.
     *
     * @return array<int, mixed> each coroutine's return value, by $i
     */
    public static function map(int $count, callable $fn, bool $hooks = true): array
    {
        $results = [];
        $errors = [];
        $saved = Runtime::getHooks();
        try {
            run(static function () use ($count, $fn, $hooks, &$results, &$errors): void {
                if (!$hooks) {
                    Runtime::disableHooks();
                }
                for ($i = 0; $i < $count; $i++) {
                    go(static function () use ($i, $fn, &$results, &$errors): void {
                        try {
                            $results[$i] = $fn($i);
                        } catch (Throwable $e) {
                            $errors[$i] = $e;
                        }
                    });
                }
            });
        } finally {
            Runtime::enableHooks($saved);
        }
        if ($errors !== []) {
            ksort($errors);
            throw reset($errors);
        }
        ksort($results);

        return $results;
    }

    /** Seconds $fn takes, on the monotonic clock. */
    public static function seconds(callable $fn): float
    {
        $start = hrtime(true);
        $fn();

        return (hrtime(true) - $start) / 1e9;
    }
}
