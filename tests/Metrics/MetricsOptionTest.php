<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\Arguments;
use Rapier\Cli\CliException;
use Rapier\Cli\ServeConfig;
use Rapier\Tests\Support\Cli;

/** `--metrics PATH` and the config file's `metrics` key. */
final class MetricsOptionTest extends TestCase
{
    public function testOffByDefaultAndTakenFromTheCommandLine(): void
    {
        $this->assertNull($this->config(['app.php'])->metrics);
        $this->assertSame('/metrics', $this->config(['app.php', '--metrics', '/metrics'])->metrics);
    }

    public function testTakenFromTheConfigFileUnlessTheCommandLineSaysOtherwise(): void
    {
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'metrics' => '/_/metrics'];");
            $this->assertSame('/_/metrics', $this->config(['--config', "$dir/rapier.php"])->metrics);
            $this->assertSame('/m', $this->config(['--config', "$dir/rapier.php", '--metrics=/m'])->metrics);
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testAPathNotStartingWithASlashIsAUsageError(): void
    {
        try {
            $this->config(['app.php', '--metrics', 'metrics']);
            $this->fail('accepted');
        } catch (CliException $e) {
            $this->assertSame(CliException::USAGE, $e->getCode());
            $this->assertStringContainsString("--metrics must be a path starting with /, got 'metrics'", $e->getMessage());
        }
    }

    /** @param list<string> $args */
    private function config(array $args): ServeConfig
    {
        return ServeConfig::fromArguments(Arguments::parse($args, ServeConfig::SPEC), '/srv');
    }
}
