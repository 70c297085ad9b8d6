<?php

declare(strict_types=1);

namespace Rapier\Tests\Psr;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;

/**
 * The PSR-7 bridge (Rapier\Http\Psr) under a real server, once with each
 * PSR-17 implementation Debian packages: requests as the app sees them,
 * and PSR-7 responses as the client receives them.
 */
final class BridgeTest extends TestCase
{
    private const FACTORIES = [
        'nyholm' => 'Nyholm\Psr7\Factory\Psr17Factory',
        'guzzle' => 'GuzzleHttp\Psr7\HttpFactory',
    ];

    /** @var array<string, array{ServedApp, int, string}> a server per factory, started on first use */
    private static array $servers = [];

    public static function tearDownAfterClass(): void
    {
        foreach (self::$servers as [$server, , $dir]) {
            $server->stop();
            Cli::removeDirectory($dir);
        }
        self::$servers = [];
    }

    /** @return iterable<string, array{string}> */
    public static function factories(): iterable
    {
        foreach (array_keys(self::FACTORIES) as $name) {
            yield $name => [$name];
        }
    }

    /** @dataProvider factories */
    public function testRequestCarriesWhatFpmWouldGive(string $factory): void
    {
        $port = $this->port($factory);

        $response = HttpClient::request($port, 'POST', '/describe?x=1&y[]=2', [
            'Host' => 'example.test:8080',
            'Content-Type' => 'application/x-www-form-urlencoded',
            'Cookie' => 'c=d; e=f%20g',
            'X-Custom' => 'one, two',
        ], 'a=1&b[]=2');

        $this->assertSame(200, $response->status);
        $seen = $response->json();
        $this->assertSame(self::FACTORIES[$factory], $seen['factory']);
        $this->assertSame('POST', $seen['method']);
        // The PSR-7 implementations percent-encode the brackets; the parsed query is the same.
        $this->assertSame('http://example.test:8080/describe?x=1&y%5B%5D=2', $seen['uri']);
        $this->assertSame(['example.test', 8080, '/describe', 'x=1&y%5B%5D=2'], [$seen['host'], $seen['port'], $seen['path'], $seen['query_string']]);
        $this->assertSame('/describe?x=1&y%5B%5D=2', $seen['target']);
        $this->assertSame('1.1', $seen['protocol']);
        $this->assertSame(['one, two'], $seen['headers']['x-custom'] ?? $seen['headers']['X-Custom']);
        $this->assertSame(['c' => 'd', 'e' => 'f g'], $seen['cookies']);
        $this->assertSame(['x' => '1', 'y' => ['2']], $seen['query']);
        $this->assertSame(['a' => '1', 'b' => ['2']], $seen['parsed']);
        $this->assertSame('a=1&b[]=2', $seen['body']);
        $this->assertEquals(['REQUEST_METHOD' => 'POST', 'REMOTE_ADDR' => '127.0.0.1', 'SERVER_PROTOCOL' => 'HTTP/1.1'], $seen['server']);
    }

    /** @dataProvider factories */
    public function testJsonBodyIsNotParsedAndHttp10IsKept(string $factory): void
    {
        $port = $this->port($factory);
        $socket = stream_socket_client("tcp://127.0.0.1:$port");
        fwrite($socket, "PUT /describe HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\":1}\n");
        $response = \Rapier\Tests\Support\HttpResponse::parse((string) stream_get_contents($socket));
        fclose($socket);

        $seen = $response->json();
        $this->assertSame('PUT', $seen['method']);
        $this->assertSame('1.0', $seen['protocol']);
        $this->assertNull($seen['parsed'], 'PSR-7 parses only form bodies');
        $this->assertSame("{\"a\":1}\n", $seen['body']);
        $this->assertSame("http://localhost:$port/describe", $seen['uri'], 'no Host: the default host and the server port');
    }

    /**
     * A body past body_buffer_size (1 MiB), which Rapier spools to a
     * temporary file: the PSR-7 body is a stream of that file, read-only.
     *
     * @dataProvider factories
     */
    public function testLargeBodyIsASeekableStreamOfItsSpooledFile(string $factory): void
    {
        $body = random_bytes(3 << 20);

        $response = HttpClient::request($this->port($factory), 'PUT', '/body', ['Content-Type' => 'application/octet-stream'], $body);

        $this->assertSame(200, $response->status, $response->body);
        $seen = $response->json();
        $this->assertStringStartsNotWith('php://', $seen['uri'], 'a stream of the spooled file, not a copy in memory');
        unset($seen['uri']);
        $this->assertSame(BodyStreamProbe::expectedFor($body), $seen);
    }

    /** @dataProvider factories */
    public function testHostThatWouldChangeTheUriIsReplaced(string $factory): void
    {
        $port = $this->port($factory);

        $seen = HttpClient::get($port, '/describe?q', ['Host' => 'evil.test/x?y@other'])->json();

        $this->assertSame('localhost', $seen['host']);
        $this->assertSame('/describe', $seen['path']);
    }

    /** @dataProvider factories */
    public function testUploadsBecomeUploadedFiles(string $factory): void
    {
        $port = $this->port($factory);
        [$type, $body] = self::multipart([
            ['f[]', 'one.txt', 'text/plain', "first\n"],
            ['f[]', 'two.bin', 'application/octet-stream', "\0\1\2"],
            ['field', null, null, 'value'],
            ['empty', '', 'application/octet-stream', ''],
        ]);

        $seen = HttpClient::request($port, 'POST', '/describe', ['Content-Type' => $type], $body)->json();

        $this->assertSame(['field' => 'value'], $seen['parsed']);
        $this->assertSame(['one.txt', 'text/plain', 6, UPLOAD_ERR_OK, "first\n"], $seen['uploads']['f.0']);
        $this->assertSame(['two.bin', 'application/octet-stream', 3, UPLOAD_ERR_OK, "\0\1\2"], $seen['uploads']['f.1']);
        $this->assertSame(UPLOAD_ERR_NO_FILE, $seen['uploads']['empty'][3], 'an empty file input');
    }

    /** @dataProvider factories */
    public function testUploadedFileMoveTo(string $factory): void
    {
        $port = $this->port($factory);
        [$type, $body] = self::multipart([['doc', 'doc.txt', 'text/plain', 'the content']]);

        $response = HttpClient::request($port, 'POST', '/move', ['Content-Type' => $type], $body);

        $this->assertSame('moved: the content', $response->body);
    }

    /** @dataProvider factories */
    public function testStatusReasonAndRepeatedHeaders(string $factory): void
    {
        $response = HttpClient::get($this->port($factory), '/headers');

        $this->assertSame(299, $response->status);
        $this->assertSame('Custom Thing', $response->reason);
        $this->assertSame(['a=1; Path=/', 'b=2; HttpOnly'], $response->headers('set-cookie'));
        $this->assertSame(['one', 'two'], $response->headers('x-multi'));
        $this->assertSame('5', $response->header('content-length'), 'a small sized body goes in one piece');
        $this->assertSame('small', $response->body);
    }

    /** @dataProvider factories */
    public function testBodyLeftAtItsEndIsSentWhole(string $factory): void
    {
        $this->assertSame('left at the end', HttpClient::get($this->port($factory), '/written')->body);
    }

    /** @dataProvider factories */
    public function testLargeBodyIsStreamedInChunks(string $factory): void
    {
        $response = HttpClient::get($this->port($factory), '/big');

        $this->assertSame('chunked', $response->header('transfer-encoding'));
        $this->assertNull($response->header('content-length'));
        $this->assertSame(str_repeat('0123456789abcdef', 3 << 16), $response->body);
    }

    /** @dataProvider factories */
    public function testUnsizedBodyIsStreamed(string $factory): void
    {
        $response = HttpClient::get($this->port($factory), '/unsized');

        $this->assertSame('chunked', $response->header('transfer-encoding'));
        $this->assertSame(implode("\n", range(1, 200000)) . "\n", $response->body);
    }

    /** @dataProvider factories */
    public function testLargeFileIsSentByTheKernelWithItsLength(string $factory): void
    {
        $port = $this->port($factory);

        $response = HttpClient::get($port, '/file');

        $file = self::$servers[$factory][2] . '/big.bin';
        $this->assertSame((string) filesize($file), $response->header('content-length'));
        $this->assertSame(md5_file($file), md5($response->body));
    }

    /** @dataProvider factories */
    public function testHeadGetsTheHeadOfGet(string $factory): void
    {
        $port = $this->port($factory);

        $head = HttpClient::request($port, 'HEAD', '/headers');

        $this->assertSame(299, $head->status);
        $this->assertSame('5', $head->header('content-length'));
        $this->assertSame('', $head->body);
        $this->assertSame(['a=1; Path=/', 'b=2; HttpOnly'], $head->headers('set-cookie'));
    }

    private function port(string $factory): int
    {
        if (!isset(self::$servers[$factory])) {
            $dir = Cli::tempDirectory();
            // Over the emitter's in-memory limit, so the file path is taken.
            file_put_contents("$dir/big.bin", random_bytes(2 << 20));
            $port = Cli::freePort();
            $server = Cli::serve([__DIR__ . '/bridge-app.php', '--port', (string) $port, '--workers', '1', '--pid-file', "$dir/rapier.pid"],
                env: ['RAPIER_TEST_PSR17' => self::FACTORIES[$factory], 'RAPIER_TEST_BIG_FILE' => "$dir/big.bin"]);
            // Kept before the wait, so that tearDownAfterClass() cleans up after a server that did not start.
            self::$servers[$factory] = [$server, $port, $dir];
            $server->waitForWorkers("$dir/rapier.pid", 1);
        }

        return self::$servers[$factory][1];
    }

    /**
     * @param list<array{string, ?string, ?string, string}> $parts name, filename (null: a plain field), type, content
     * @return array{string, string} the Content-Type and the body
     */
    private static function multipart(array $parts): array
    {
        $boundary = 'rapier' . bin2hex(random_bytes(8));
        $body = '';
        foreach ($parts as [$name, $filename, $type, $content]) {
            $body .= "--$boundary\r\nContent-Disposition: form-data; name=\"$name\""
                . ($filename === null ? '' : "; filename=\"$filename\"") . "\r\n"
                . ($type === null ? '' : "Content-Type: $type\r\n") . "\r\n$content\r\n";
        }

        return ["multipart/form-data; boundary=$boundary", "$body--$boundary--\r\n"];
    }
}
