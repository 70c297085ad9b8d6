<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * The command line after the command name: positional arguments and
 * `--name value`, `--name=value` or `--flag` options, checked against the
 * command's list; `--` ends the options.
 */
final class Arguments
{
    public const VALUE = 'value';
    public const FLAG = 'flag';

    /**
     * @param list<string> $positional
     * @param array<string, string|true> $options by name without the dashes
     */
    private function __construct(public readonly array $positional, public readonly array $options)
    {
    }

    /**
     * @param list<string> $args
     * @param array<string, self::VALUE|self::FLAG> $spec
     * @throws CliException for an unknown option or a missing value
     */
    public static function parse(array $args, array $spec): self
    {
        $positional = [];
        $options = [];
        for ($i = 0, $n = count($args); $i < $n; $i++) {
            $arg = $args[$i];
            if ($arg === '--') {
                array_push($positional, ...array_slice($args, $i + 1));
                break;
            }
            if (!str_starts_with($arg, '--') || $arg === '--') {
                $positional[] = $arg;
                continue;
            }
            [$name, $value] = str_contains($arg, '=') ? explode('=', substr($arg, 2), 2) : [substr($arg, 2), null];
            $kind = $spec[$name] ?? throw CliException::usage("unknown option --$name");
            if ($kind === self::FLAG) {
                if ($value !== null) {
                    throw CliException::usage("--$name takes no value");
                }
                $options[$name] = true;
                continue;
            }
            if ($value === null) {
                if ($i + 1 >= $n) {
                    throw CliException::usage("--$name needs a value");
                }
                $value = $args[++$i];
            }
            $options[$name] = $value;
        }

        return new self($positional, $options);
    }
}
