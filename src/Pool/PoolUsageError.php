<?php

declare(strict_types=1);

namespace Rapier\Pool;

/**
 * A bug in the calling code, not a runtime failure: borrowing outside a
 * coroutine, putting back a connection the pool did not lend or already got
 * back. Not a PoolException, so retry logic does not swallow it.
 */
final class PoolUsageError extends \Error
{
}
