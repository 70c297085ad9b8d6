<?php

declare(strict_types=1);

namespace Rapier\Pool;

/** The pool was closed before, or while, the caller waited for a connection. */
final class PoolClosedException extends PoolException
{
}
