<?php

declare(strict_types=1);

namespace Rapier\Pool;

/**
 * Base of every runtime failure a pool reports: catch it to handle "no
 * connection could be had" in one place.
 */
class PoolException extends \Rapier\Exception
{
}
