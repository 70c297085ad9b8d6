<?php

declare(strict_types=1);

namespace Rapier\Pool;

/** Every connection stayed in use for the whole wait timeout of a borrow. */
final class PoolTimeoutException extends PoolException
{
}
