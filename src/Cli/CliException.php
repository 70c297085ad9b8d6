<?php

declare(strict_types=1);

namespace Rapier\Cli;

use RuntimeException;

/**
 * A failure the command reports as one line, "rapier: <message>", and
 * exits with the code: USAGE for a mistake on the command line, else 1.
 * It extends RuntimeException, not Rapier\Exception, because `rapier help`
 * and the "build the extension first" message work without the extension.
 */
final class CliException extends RuntimeException
{
    public const FAILURE = 1;
    public const USAGE = 2;
    /** `rapier status` of a server that is not running (the LSB init-script code). */
    public const NOT_RUNNING = 3;

    public static function usage(string $message): self
    {
        return new self($message . ' (see `rapier help`)', self::USAGE);
    }
}
