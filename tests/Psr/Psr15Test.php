<?php

declare(strict_types=1);

namespace Rapier\Tests\Psr;

use Rapier\Tests\Adapter\AppClient;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\PsrExtension;
use Rapier\Tests\Support\ServedAppTestCase;
use Rapier\Tests\Support\TlsCertificate;

/**
 * `rapier serve` of an APP returning a PSR-15 RequestHandlerInterface. The
 * interfaces exist on Debian only in the psr extension, which the server
 * process loads from scripts/psr-ext.sh's unpacked copy; without it the
 * app cannot load, and the error says where the interfaces come from.
 */
final class Psr15Test extends ServedAppTestCase
{
    public function testServesAPsr15Handler(): void
    {
        $port = Cli::freePort();
        $this->server = Cli::serve([__DIR__ . '/psr15-app.php', '--port', (string) $port, '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid"], PsrExtension::phpOptions());
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);

        $get = HttpClient::get($port, '/hello?name=psr');
        $post = HttpClient::request($port, 'POST', '/items', ['Content-Type' => 'text/plain'], 'payload');

        $this->assertStringContainsString('psr15-app.php (PSR-15) on', $this->server->stdout());
        $this->assertSame(200, $get->status);
        $this->assertSame('application/json', $get->header('content-type'));
        $this->assertSame(['method' => 'GET', 'scheme' => 'http', 'path' => '/hello', 'name' => 'psr', 'body' => '', 'handled' => 1],
            $get->json());
        $this->assertSame(201, $post->status);
        $this->assertSame(['method' => 'POST', 'scheme' => 'http', 'path' => '/items', 'name' => null, 'body' => 'payload', 'handled' => 2],
            $post->json(), 'one handler object serves the worker\'s requests');
    }

    /**
     * Bodies Rapier spools to a temporary file: past body_buffer_size
     * (1 MiB), or of unknown length (chunked); as they arrive, or with
     * request_buffering off, by the bridge's Request::bufferBody() once the
     * handler has started.
     *
     * @return iterable<string, array{array<string, string>, bool}> the extra request headers, request_buffering
     */
    public static function spooledBodies(): iterable
    {
        yield 'with its length' => [[], true];
        yield 'chunked' => [['Transfer-Encoding' => 'chunked'], true];
        yield 'with its length, request_buffering off' => [[], false];
        yield 'chunked, request_buffering off' => [['Transfer-Encoding' => 'chunked'], false];
    }

    /**
     * @dataProvider spooledBodies
     * @param array<string, string> $headers
     */
    public function testLargeBodyReachesTheHandlerAsASeekableStreamOfItsFile(array $headers, bool $buffering): void
    {
        $port = Cli::freePort();
        $config = [];
        if (!$buffering) {
            file_put_contents("$this->dir/rapier-config.php", "<?php\n\nreturn ['server' => ['request_buffering' => false]];\n");
            $config = ['--config', "$this->dir/rapier-config.php"];
        }
        $this->server = Cli::serve([__DIR__ . '/psr15-app.php', '--port', (string) $port, '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid", ...$config], PsrExtension::phpOptions());
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);
        $body = random_bytes(3 << 20);

        $response = (new AppClient("http://127.0.0.1:$port"))
            ->request('PUT', '/body', ['Content-Type' => 'application/octet-stream'] + $headers, $body);

        $this->assertSame(200, $response->status, $response->describe() . "\n" . $this->server->stderr());
        $seen = $response->json();
        $this->assertStringStartsNotWith('php://', $seen['uri'], 'a stream of the spooled file, not a copy in memory');
        unset($seen['uri']);
        $this->assertSame(BodyStreamProbe::expectedFor($body), $seen);
    }

    public function testRequestOverHttpsHasAnHttpsUri(): void
    {
        $cert = TlsCertificate::create($this->dir);
        $port = Cli::freePort();
        $this->server = Cli::serve([__DIR__ . '/psr15-app.php', '--port', (string) $port, '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid", '--tls-cert', $cert->certFile, '--tls-key', $cert->keyFile],
            PsrExtension::phpOptions());
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);

        $response = (new AppClient("https://127.0.0.1:$port", $cert->certFile))->get('/hello?name=tls');

        $this->assertSame(200, $response->status, $response->describe());
        $this->assertSame(['method' => 'GET', 'scheme' => 'https', 'path' => '/hello', 'name' => 'tls', 'body' => '', 'handled' => 1],
            $response->json());
    }

    public function testHandlerExceptionIsA500AndTheWorkerCarriesOn(): void
    {
        $port = Cli::freePort();
        $this->server = Cli::serve([__DIR__ . '/psr15-app.php', '--port', (string) $port, '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid"], PsrExtension::phpOptions());
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);

        $this->assertSame(500, HttpClient::get($port, '/fail')->status);
        $this->assertSame(200, HttpClient::get($port, '/after')->status);
        $this->assertStringContainsString('handler failed', $this->server->stderr());
    }

    public function testWithoutThePsrExtensionTheErrorSaysWhereTheInterfacesAre(): void
    {
        $result = Cli::run(['serve', __DIR__ . '/psr15-app.php', '--port', (string) Cli::freePort(), '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertStringContainsString('Interface "Psr\Http\Server\RequestHandlerInterface" not found', $result->stderr);
        $this->assertStringEndsWith("(the PSR-15 interfaces come from the psr extension: php -d extension=psr.so)\n", $result->stderr);
    }
}
