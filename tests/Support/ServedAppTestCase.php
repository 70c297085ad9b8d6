<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use PHPUnit\Framework\TestCase;

/**
 * A test that starts bin/rapier: a scratch directory for its app, pid file
 * and logs, and the server it started, stopped after every test.
 */
abstract class ServedAppTestCase extends TestCase
{
    protected string $dir;
    protected ?ServedApp $server = null;

    protected function setUp(): void
    {
        $this->dir = Cli::tempDirectory();
    }

    protected function tearDown(): void
    {
        $this->server?->stop();
        // Released here, not when PHPUnit drops the test at the end of the run: the destructor removes the output files.
        $this->server = null;
        Cli::removeDirectory($this->dir);
    }
}
