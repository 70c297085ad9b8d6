<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/** tests/apps/laravel served by Rapier with its framework adapter. */
final class LaravelRapierTest extends AppContract
{
    use LaravelCases;

    protected static function app(): string
    {
        return 'laravel';
    }

    protected static function mode(): string
    {
        return 'rapier';
    }

    /**
     * Rapier only: under php-fpm, Symfony 5's BinaryFileResponse sends its
     * 416 with the file's Content-Length and no body, which a client reads
     * as a truncated transfer. Rapier sends the status without the file and
     * sets the length itself.
     */
    public function testDownloadRangePastTheEndGets416WithoutTheFile(): void
    {
        $response = $this->get('/download', ['Range' => 'bytes=5000-6000']);
        $this->assertStatus(416, $response);
        $this->assertSame('', $response->body);
        $this->assertSame('bytes */12', $response->header('content-range'));
        $this->assertSame('0', $response->header('content-length'));

        $partial = $this->get('/download', ['Range' => 'bytes=0-7']);
        $this->assertStatus(206, $partial);
        $this->assertSame('download', $partial->body);
    }

    /**
     * A streamed callback that closes every output buffer gets its
     * response, with what it echoed until then. What it echoes after that
     * goes to the worker's output, not the client (docs/frameworks.md).
     */
    public function testStreamThatClosesTheOutputBuffersStillCompletes(): void
    {
        $response = $this->get('/stream-closes-buffers');
        $this->assertStatus(200, $response);
        $this->assertSame('before;', $response->body);
        $this->assertSame(['user' => null], $this->get('/whoami')->json(), 'the next request is served');
    }
}
