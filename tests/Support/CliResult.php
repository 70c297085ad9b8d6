<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

/** How a `rapier` command that ran to completion ended. */
final class CliResult
{
    public function __construct(
        public readonly int $exitCode,
        public readonly string $stdout,
        public readonly string $stderr,
    ) {
    }

    public function describe(): string
    {
        return "exit code {$this->exitCode}\n--- stdout\n{$this->stdout}\n--- stderr\n{$this->stderr}";
    }
}
