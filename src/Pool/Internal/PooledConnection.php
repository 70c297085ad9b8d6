<?php

declare(strict_types=1);

namespace Rapier\Pool\Internal;

/**
 * A connection as the pool tracks it: when it last came back (for the idle
 * timeout and the health-check threshold) and which coroutine holds it.
 *
 * @internal
 */
final class PooledConnection
{
    /** Id of the coroutine that borrowed it; -1 while idle. */
    public int $owner = -1;

    public function __construct(
        public readonly object $connection,
        /** hrtime(true) when it was opened or last put back. */
        public int $since,
    ) {
    }
}
