<?php

declare(strict_types=1);

namespace Rapier\App;

use Rapier\Exception;

/** APP is missing, fails to load, or returns nothing `rapier serve` can serve. The message is one line. */
final class AppException extends Exception
{
}
