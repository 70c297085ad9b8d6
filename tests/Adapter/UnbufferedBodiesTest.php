<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use CURLFile;
use PHPUnit\Framework\TestCase;

/**
 * The four framework apps of tests/apps/ served by `rapier serve` (one
 * worker) with request_buffering off, set in a --config file: their
 * handlers start once a request's head has arrived, and the adapters take
 * the body whole before they call the framework, so each case gets what
 * AppContract expects with buffering on, from the same routes.
 *
 * Each app's server starts once, on its first case, and serves the rest.
 */
final class UnbufferedBodiesTest extends TestCase
{
    private const APPS = ['laravel', 'lumen', 'symfony', 'slim'];

    /** The access log on stderr, with the server's output (AppServer::logs()). */
    private const SERVER_OPTIONS = ['request_buffering' => false, 'access_log' => 'stderr'];

    /** @var array<string, AppServer> by app */
    private static array $servers = [];

    public static function tearDownAfterClass(): void
    {
        foreach (self::$servers as $server) {
            $server->stop();
        }
        self::$servers = [];
    }

    /**
     * AppContract's raw bodies, with whether Rapier would spool them to a
     * file with buffering on (past body_buffer_size, 1 MiB).
     *
     * @return iterable<string, array{string, string, int, array<string, string>, bool}> app, method, size, extra headers, spooled when buffered
     */
    public static function rawBodies(): iterable
    {
        foreach (self::APPS as $app) {
            yield "$app: PUT 3 MiB" => [$app, 'PUT', 3 << 20, [], true];
            yield "$app: PUT 3 MiB chunked" => [$app, 'PUT', 3 << 20, ['Transfer-Encoding' => 'chunked'], true];
            yield "$app: PUT 64 KiB" => [$app, 'PUT', 64 << 10, [], false];
        }
    }

    /** @return iterable<string, array{string}> */
    public static function apps(): iterable
    {
        foreach (self::APPS as $app) {
            yield $app => [$app];
        }
    }

    /**
     * The framework's API gives the whole body, twice, and so does
     * php://input: the adapter took the live body whole first, with
     * Request::bufferBody() (curl sends the 3 MiB ones with
     * Expect: 100-continue, answered on that first read), so the app sees
     * no stream already read.
     *
     * A body Rapier spools with buffering on is spooled here too, by
     * bufferBody(): the app reads it from its file, not from a copy in the
     * worker's memory.
     *
     * @dataProvider rawBodies
     * @param array<string, string> $headers
     */
    public function testRawBodyReachesTheAppWholeAndRereadable(
        string $app,
        string $method,
        int $size,
        array $headers,
        bool $spooledWhenBuffered,
    ): void {
        $body = random_bytes($size);

        $response = $this->client($app)->request($method, '/body', ['Content-Type' => 'application/octet-stream'] + $headers, $body);

        $this->assertStatus($app, 200, $response);
        $seen = $response->json();
        $stream = $seen['stream'];
        unset($seen['stream']);
        $this->assertSame(['size' => $size, 'sha1' => sha1($body), 'again' => true, 'input' => sha1($body)], $seen);
        if ($spooledWhenBuffered) {
            $this->assertIsString($stream);
            $this->assertStringStartsNotWith('php://', $stream, 'the app holds a copy of the body, not its spool file');
        }
    }

    /**
     * With request_buffering off the adapter's handler starts at the head
     * and waits for the body: a client that leaves mid-body ends that wait
     * (its BodyException, 499, goes up through the adapter, and the server
     * logs the request as 499 in the access log, not as an uncaught
     * exception: the client's doing), and the worker serves on. With
     * buffering on, no handler would run at all: this is also what tells
     * that the config's option reached the server.
     *
     * @dataProvider apps
     */
    public function testAClientLeavingMidBodyEndsTheAdaptersWait(string $app): void
    {
        $client = $this->client($app);
        $url = parse_url(self::$servers[$app]->baseUrl);
        $socket = stream_socket_client("tcp://{$url['host']}:{$url['port']}", $errno, $error, 5);
        $this->assertIsResource($socket, $error);
        fwrite($socket, "PUT /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
            . "Content-Length: 1000000\r\n\r\n" . str_repeat('x', 1000));
        usleep(200000);
        fclose($socket);

        $marker = '"PUT /body HTTP/1.1" 499 0';
        $deadline = microtime(true) + 10;
        while (!str_contains(self::$servers[$app]->logs(), $marker) && microtime(true) < $deadline) {
            usleep(50000);
        }
        $this->assertStringContainsString($marker, self::$servers[$app]->logs());
        $this->assertStringNotContainsString('BodyException', self::$servers[$app]->logs());
        $response = $client->request('PUT', '/body', ['Content-Type' => 'application/octet-stream'], 'after');
        $this->assertStatus($app, 200, $response);
        $this->assertSame(5, $response->json()['size']);
    }

    /**
     * AppContract's urlencoded forms, and a chunked one, whose length
     * `post` cannot know before the body ends.
     *
     * @return iterable<string, array{string, string, array<string, string>, string, array<string, mixed>}> app, method, extra headers, body, expected
     */
    public static function urlencodedForms(): iterable
    {
        foreach (self::APPS as $app) {
            yield "$app: POST" => [$app, 'POST', [], 'name=Ada+L&tags%5B%5D=x&tags%5B%5D=y',
                ['method' => 'POST', 'name' => 'Ada L', 'tags' => ['x', 'y']]];
            yield "$app: POST chunked" => [$app, 'POST', ['Transfer-Encoding' => 'chunked'], 'name=Ada+L&tags%5B%5D=x',
                ['method' => 'POST', 'name' => 'Ada L', 'tags' => ['x']]];
            yield "$app: PUT" => [$app, 'PUT', [], 'name=Put&tags%5B%5D=p',
                ['method' => 'PUT', 'name' => 'Put', 'tags' => ['p']]];
        }
    }

    /**
     * `post` waits for the whole urlencoded body before the adapter reads it.
     *
     * @dataProvider urlencodedForms
     * @param array<string, string> $headers
     * @param array<string, mixed> $expected
     */
    public function testUrlencodedFormReachesTheApp(string $app, string $method, array $headers, string $body, array $expected): void
    {
        $response = $this->client($app)->request($method, '/form',
            ['Content-Type' => 'application/x-www-form-urlencoded'] + $headers, $body);

        $this->assertStatus($app, 200, $response);
        $this->assertSame($expected, $response->json());
    }

    /**
     * A multipart body is still received whole and its files spooled
     * before the handler, so the upload is complete.
     *
     * @dataProvider apps
     */
    public function testFileUpload(string $app): void
    {
        $content = random_bytes(70000) . "\0end";
        $file = tempnam(sys_get_temp_dir(), 'rapier-upload-');
        file_put_contents($file, $content);
        try {
            $response = $this->client($app)->request('POST', '/upload', [],
                ['doc' => new CURLFile($file, 'application/octet-stream', 'report.bin'), 'note' => 'x']);
        } finally {
            unlink($file);
        }

        $this->assertStatus($app, 200, $response);
        $this->assertSame(
            ['name' => 'report.bin', 'size' => strlen($content), 'sha1' => sha1($content), 'stored' => true],
            $response->json(),
        );
    }

    private function client(string $app): AppClient
    {
        self::$servers[$app] ??= AppServer::rapier($app, self::SERVER_OPTIONS);

        return new AppClient(self::$servers[$app]->baseUrl);
    }

    private function assertStatus(string $app, int $status, AppResponse $response): void
    {
        $this->assertSame($status, $response->status, $response->describe() . "\n" . self::$servers[$app]->logs());
    }
}
