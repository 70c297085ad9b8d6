<?php

declare(strict_types=1);

namespace Rapier\Pool;

/**
 * A new connection could not be opened (refused, unreachable, bad
 * credentials). The message names where the pool connects, never a
 * password; the driver's own exception is the previous one when its trace
 * cannot hold the password.
 */
final class ConnectionException extends PoolException
{
}
