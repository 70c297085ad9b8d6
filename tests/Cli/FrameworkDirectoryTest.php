<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedAppTestCase;

/**
 * `rapier serve DIR` finds the framework of a project directory (the apps
 * of tests/apps/) and serves it through its adapter. What each framework
 * does per request is tested in tests/Adapter; this is about detection.
 */
final class FrameworkDirectoryTest extends ServedAppTestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function projects(): iterable
    {
        yield 'laravel (bootstrap/app.php)' => ['laravel', 'Laravel'];
        yield 'lumen (bootstrap/app.php)' => ['lumen', 'Lumen'];
        yield 'symfony (app.php returning the kernel)' => ['symfony', 'Symfony'];
        yield 'slim (app.php)' => ['slim', 'Slim'];
    }

    /** @dataProvider projects */
    public function testServesTheProjectThroughItsAdapter(string $name, string $kind): void
    {
        $app = dirname(__DIR__) . "/apps/$name";
        $port = Cli::freePort();
        $this->server = Cli::serve([$app, '--port', (string) $port, '--workers', '1', '--pid-file', "$this->dir/rapier.pid"],
            env: ['RAPIER_APP_STORAGE' => "$this->dir/storage"]);
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);

        $response = HttpClient::get($port, '/');

        $this->assertSame(200, $response->status, $this->server->output());
        $this->assertStringContainsString("serving $app ($kind) on http://127.0.0.1:$port", $this->server->stdout());
    }

    public function testSymfonyKernelIsBuiltFromSrcKernelPhpWithoutAppPhp(): void
    {
        // A Symfony project as symfony/skeleton lays it out: no app.php, the kernel in src/Kernel.php.
        $project = "$this->dir/project";
        mkdir("$project/src", 0777, true);
        mkdir("$project/public");
        file_put_contents("$project/public/index.php", '<?php // the front controller, never run by rapier');
        file_put_contents("$project/src/Kernel.php", <<<'PHP'
            <?php
            namespace Shop;
            use Symfony\Component\HttpFoundation\Request;
            use Symfony\Component\HttpFoundation\Response;
            use Symfony\Component\HttpKernel\HttpKernelInterface;
            final class Kernel implements HttpKernelInterface
            {
                public function __construct(private string $env, private bool $debug) {}
                public function handle(Request $request, int $type = self::MAIN_REQUEST, bool $catch = true): Response
                {
                    return new Response("kernel {$this->env} " . var_export($this->debug, true));
                }
            }
            PHP);
        file_put_contents("$project/vendor.php", '<?php require_once "/usr/share/php/Symfony/Component/HttpKernel/autoload.php";');
        mkdir("$project/vendor");
        file_put_contents("$project/vendor/autoload.php", '<?php require_once dirname(__DIR__) . "/vendor.php";');
        $port = Cli::freePort();
        $this->server = Cli::serve([$project, '--port', (string) $port, '--workers', '1'], env: ['APP_ENV' => 'staging']);
        $this->server->waitForWorkers("$project/.rapier.pid", 1);

        $this->assertSame('kernel staging true', HttpClient::get($port, '/')->body);
    }
}
