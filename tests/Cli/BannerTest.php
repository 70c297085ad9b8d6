<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\Arguments;
use Rapier\Cli\Banner;
use Rapier\Cli\ServeConfig;
use Rapier\Tests\Support\Cli;

/** What `rapier serve` prints as it starts, on a terminal and into a log. */
final class BannerTest extends TestCase
{
    public function testTerminalBannerNamesAddressWorkersModeAndVersions(): void
    {
        $dir = Cli::tempDirectory();
        $config = self::config([$dir, '--host', '0.0.0.0', '--port', '9000', '--workers', '4', '--watch']);

        $text = Banner::render($config, 'Laravel', $config->serverOptions(true), true);
        Cli::removeDirectory($dir);

        $this->assertStringContainsString(sprintf('Rapier %s, PHP %s', phpversion('rapier'), PHP_VERSION), $text);
        $this->assertStringContainsString("  app       $dir (Laravel)\n", $text);
        $this->assertStringContainsString("  address   http://0.0.0.0:9000\n", $text);
        $this->assertStringContainsString("  workers   4 workers; 1 request at a time per worker\n", $text);
        $this->assertStringContainsString("  mode      master + workers, watching for changes\n", $text);
        $this->assertStringContainsString("  pid file  $dir/.rapier.pid (", $text, 'beside the app, inside a project directory');
    }

    public function testWatchPollIsNamedInBothBanners(): void
    {
        $dir = Cli::tempDirectory();
        $config = self::config([$dir, '--workers', '2', '--watch-poll']);

        $terminal = Banner::render($config, 'callable', $config->serverOptions(false), true);
        $log = Banner::render($config, 'callable', $config->serverOptions(false), false);
        Cli::removeDirectory($dir);

        $this->assertTrue($config->watch, '--watch-poll watches');
        $this->assertStringContainsString("  mode      master + workers, watching for changes by polling\n", $terminal);
        $this->assertStringContainsString(', watching for changes by polling (', $log);
    }

    public function testTerminalBannerListsTheSharedTables(): void
    {
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'tables' => ["
                . "'visits' => ['size' => 10000, 'columns' => ['hits' => 'int']], 'tokens' => ['size' => 64, 'columns' => ['t' => 'string:40']]]];");
            $config = self::config(['--config', "$dir/rapier.php", '--workers', '2']);

            $text = Banner::render($config, 'callable', $config->serverOptions(false), true);
        } finally {
            Cli::removeDirectory($dir);
        }

        $this->assertStringContainsString("  tables    visits (10000 rows), tokens (64 rows)\n", $text);
    }

    public function testLogBannerIsOneLine(): void
    {
        $config = self::config(['/srv/app.php', '--workers', '0', '--host', '::1']);

        $text = Banner::render($config, 'callable', $config->serverOptions(false), false);

        $this->assertSame(sprintf("rapier: serving /srv/app.php (callable) on http://[::1]:8080, in a single process (Rapier %s, PHP %s)\n",
            phpversion('rapier'), PHP_VERSION), $text);
    }

    public function testAddressIsHttpsWithACertificate(): void
    {
        $config = self::config(['/srv/app.php', '--workers', '1', '--tls-cert', '/srv/tls/cert.pem']);

        $this->assertStringContainsString("  address   https://127.0.0.1:8080\n", Banner::render($config, 'callable', $config->serverOptions(false), true));
        $this->assertStringContainsString(' (callable) on https://127.0.0.1:8080, 1 worker ',
            Banner::render($config, 'callable', $config->serverOptions(false), false));
    }

    public function testHttpPortIsNamed(): void
    {
        $config = self::config(['/srv/app.php', '--workers', '1', '--tls-cert', '/srv/tls/cert.pem', '--port', '443',
            '--http-port', '80']);

        $this->assertStringContainsString("  redirect  plain HTTP on port 80, to HTTPS\n",
            Banner::render($config, 'callable', $config->serverOptions(false), true));
    }

    /** @param list<string> $args */
    private static function config(array $args): ServeConfig
    {
        return ServeConfig::fromArguments(Arguments::parse($args, ServeConfig::SPEC), '/');
    }
}
