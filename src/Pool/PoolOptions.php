<?php

declare(strict_types=1);

namespace Rapier\Pool;

use ValueError;

/**
 * Sizes and timeouts of a pool, checked once here. All durations are in
 * seconds.
 */
final class PoolOptions
{
    /**
     * @param int $max connections open at most (borrowed, idle or opening)
     * @param int $min connections the idle timeout leaves open; Pool::fill() opens them up front
     * @param float $waitTimeout how long get() waits for a free connection when all $max are
     *        in use, by default; negative waits forever, 0 does not wait
     * @param float|null $idleTimeout an idle connection unused for longer is closed (down to $min);
     *        null keeps idle connections forever
     * @param float $checkAfterIdle a connection idle at least this long is health-checked before it
     *        is lent (0: on every borrow); a fresher one is lent at once
     *
     * @throws ValueError for a size or duration out of range
     */
    public function __construct(
        public readonly int $max = 10,
        public readonly int $min = 0,
        public readonly float $waitTimeout = 3.0,
        public readonly ?float $idleTimeout = 60.0,
        public readonly float $checkAfterIdle = 1.0,
    ) {
        if ($max < 1) {
            throw self::invalid(1, 'max', 'must be greater than 0');
        }
        if ($min < 0 || $min > $max) {
            throw self::invalid(2, 'min', 'must be between 0 and $max');
        }
        if (is_nan($waitTimeout)) {
            throw self::invalid(3, 'waitTimeout', 'must not be NAN');
        }
        if ($idleTimeout !== null && !($idleTimeout > 0)) {
            throw self::invalid(4, 'idleTimeout', 'must be greater than 0, or null for no idle timeout');
        }
        if (!($checkAfterIdle >= 0)) {
            throw self::invalid(5, 'checkAfterIdle', 'must be greater than or equal to 0');
        }
    }

    /** The message in the shape PHP gives its own ValueErrors. */
    private static function invalid(int $position, string $name, string $rule): ValueError
    {
        return new ValueError(sprintf('%s::__construct(): Argument #%d ($%s) %s', self::class, $position, $name, $rule));
    }
}
