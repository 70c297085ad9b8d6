<?php

declare(strict_types=1);

namespace Rapier\Cache;

/** A key, list of keys or TTL that PSR-16 does not allow, given to SimpleCache. */
final class InvalidArgumentException extends \InvalidArgumentException implements \Psr\SimpleCache\InvalidArgumentException
{
}
