<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use CURLFile;
use PHPUnit\Framework\TestCase;

/**
 * What every app in tests/apps/ must do, whatever serves it: each concrete
 * test class names an app and a server (Rapier with the framework adapter,
 * or nginx + php-fpm), and these cases run against it over real HTTP.
 *
 * The apps implement the same routes (see tests/apps/laravel/routes/web.php).
 * The server runs one worker (one php-fpm child), so consecutive requests
 * reach the same process: the cases about state from one request reaching
 * the next are meaningful, and under php-fpm they hold trivially.
 */
abstract class AppContract extends TestCase
{
    /** The Link headers of the apps' /hints route (tests/apps/hints.php). */
    private const HINT_LINKS = ['</app.css>; rel=preload; as=style', '</app.js>; rel=preload; as=script'];

    protected static ?AppServer $server = null;

    /** The app's directory name under tests/apps/. */
    abstract protected static function app(): string;

    /** "rapier" or "fpm". */
    abstract protected static function mode(): string;

    public static function setUpBeforeClass(): void
    {
        self::$server = AppServer::start(static::app(), static::mode());
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    protected function client(): AppClient
    {
        return new AppClient(self::$server->baseUrl);
    }

    /** @param array<string, string> $headers */
    protected function get(string $target, array $headers = []): AppResponse
    {
        return $this->client()->get($target, $headers);
    }

    protected function assertStatus(int $status, AppResponse $response): void
    {
        $this->assertSame($status, $response->status, $response->describe() . "\n" . self::$server->logs());
    }

    public function testHomePageIsHtml(): void
    {
        $response = $this->get('/');
        $this->assertStatus(200, $response);
        $this->assertStringStartsWith('text/html', (string) $response->header('content-type'));
        $this->assertStringContainsString('Hello from ' . static::app(), $response->body);
    }

    public function testJsonWithQuery(): void
    {
        $response = $this->get('/json?name=Ada%20L');
        $this->assertStatus(200, $response);
        $this->assertStringStartsWith('application/json', (string) $response->header('content-type'));
        $this->assertSame(['framework' => static::app(), 'hello' => 'Ada L'], $response->json());
    }

    public function testRouteParameter(): void
    {
        $response = $this->get('/users/42');
        $this->assertStatus(200, $response);
        $this->assertSame(['id' => 42], $response->json());
    }

    public function testRouteConstraintMismatchIsNotFound(): void
    {
        $this->assertStatus(404, $this->get('/users/abc'));
    }

    public function testJsonBodyQueryAndHeader(): void
    {
        $response = $this->client()->request('POST', '/echo?q=1',
            ['Content-Type' => 'application/json', 'X-Test' => 'yes'], '{"a":[1,2],"b":{"c":"d"}}');
        $this->assertStatus(200, $response);
        $this->assertSame(
            ['json' => ['a' => [1, 2], 'b' => ['c' => 'd']], 'query' => ['q' => '1'], 'header' => 'yes'],
            $response->json(),
        );
    }

    public function testUrlencodedFormPost(): void
    {
        $response = $this->client()->request('POST', '/form',
            ['Content-Type' => 'application/x-www-form-urlencoded'], 'name=Ada+L&tags%5B%5D=x&tags%5B%5D=y');
        $this->assertStatus(200, $response);
        $this->assertSame(['method' => 'POST', 'name' => 'Ada L', 'tags' => ['x', 'y']], $response->json());
    }

    public function testMultipartFormPost(): void
    {
        $response = $this->client()->request('POST', '/form', [], ['name' => 'Grace', 'tags[0]' => 'z']);
        $this->assertStatus(200, $response);
        $this->assertSame(['method' => 'POST', 'name' => 'Grace', 'tags' => ['z']], $response->json());
    }

    public function testUrlencodedFormPut(): void
    {
        $response = $this->client()->request('PUT', '/form',
            ['Content-Type' => 'application/x-www-form-urlencoded'], 'name=Put&tags%5B%5D=p');
        $this->assertStatus(200, $response);
        $this->assertSame(['method' => 'PUT', 'name' => 'Put', 'tags' => ['p']], $response->json());
    }

    public function testFileUpload(): void
    {
        $content = random_bytes(70000) . "\0end";
        $file = tempnam(sys_get_temp_dir(), 'rapier-upload-');
        file_put_contents($file, $content);
        try {
            $response = $this->client()->request('POST', '/upload', [],
                ['doc' => new CURLFile($file, 'application/octet-stream', 'report.bin'), 'note' => 'x']);
        } finally {
            unlink($file);
        }
        $this->assertStatus(200, $response);
        $this->assertSame(
            ['name' => 'report.bin', 'size' => strlen($content), 'sha1' => sha1($content), 'stored' => true],
            $response->json(),
        );
    }

    /**
     * Raw bodies Rapier spools to a temporary file while they arrive (past
     * the server's body_buffer_size, 1 MiB, whether their length is given or
     * they come chunked), and ones it keeps in memory.
     *
     * @return iterable<string, array{string, int, array<string, string>, bool}> method, size, extra headers, spooled
     */
    public static function rawBodies(): iterable
    {
        yield 'PUT 3 MiB' => ['PUT', 3 << 20, [], true];
        yield 'PUT 3 MiB chunked' => ['PUT', 3 << 20, ['Transfer-Encoding' => 'chunked'], true];
        yield 'POST 3 MiB' => ['POST', 3 << 20, [], true];
        yield 'PUT 1 MiB + 1 byte' => ['PUT', (1 << 20) + 1, [], true];
        yield 'PUT 64 KiB' => ['PUT', 64 << 10, [], false];
        yield 'PUT 64 KiB chunked' => ['PUT', 64 << 10, ['Transfer-Encoding' => 'chunked'], false];
    }

    /**
     * The framework's own API gives the body whole, and again when asked
     * twice; so does php://input, which code written for php-fpm reads. Under Rapier a spooled body is a stream of its file, never a
     * copy in memory (under php-fpm the framework reads php://input).
     *
     * @dataProvider rawBodies
     * @param array<string, string> $headers
     */
    public function testRawBodyReachesTheAppIntactAndRereadable(string $method, int $size, array $headers, bool $spooled): void
    {
        $body = random_bytes($size);

        $response = $this->client()->request($method, '/body', ['Content-Type' => 'application/octet-stream'] + $headers, $body);

        $this->assertStatus(200, $response);
        $seen = $response->json();
        $stream = $seen['stream'];
        unset($seen['stream']);
        $this->assertSame(['size' => $size, 'sha1' => sha1($body), 'again' => true, 'input' => sha1($body)], $seen);
        if ($spooled && static::mode() === 'rapier') {
            $this->assertIsString($stream);
            $this->assertStringStartsNotWith('php://', $stream, 'the app holds a copy of the spooled body, not its file');
        }
    }

    public function testSessionPersistsThroughItsCookieAndStaysWithItsClient(): void
    {
        $alice = $this->client();
        $bob = $this->client();
        $this->assertSame(['value' => 'alice-1'], $alice->get('/session?put=alice-1')->json());
        $this->assertStatus(200, $this->get('/json'));
        $this->assertSame(['value' => 'alice-1'], $alice->get('/session')->json(), 'after a request of no client');
        $this->assertSame(['value' => null], $bob->get('/session')->json(), 'a new client has no session');
        $this->assertSame(['value' => 'bob-1'], $bob->get('/session?put=bob-1')->json());
        $this->assertSame(['value' => 'alice-1'], $alice->get('/session')->json());
        $this->assertSame(['value' => 'bob-1'], $bob->get('/session')->json());
        $this->assertSame(['value' => null], $this->get('/session')->json(), 'no cookie, no session');
    }

    public function testRedirect(): void
    {
        $response = $this->get('/redirect');
        $this->assertStatus(302, $response);
        $this->assertStringEndsWith('/json?name=redirected', (string) $response->header('location'));
    }

    public function testTwoCookiesSet(): void
    {
        $response = $this->get('/cookies/set');
        $this->assertStatus(200, $response);
        $cookies = $response->cookies();
        $this->assertSame('chocolate', $cookies['flavor'] ?? null, $response->describe());
        $this->assertSame('large', $cookies['size'] ?? null, $response->describe());
    }

    public function testCookiesRead(): void
    {
        $response = $this->get('/cookies', ['Cookie' => 'flavor=vanilla; size=small']);
        $this->assertSame(['flavor' => 'vanilla', 'size' => 'small'], $response->json());
    }

    public function testExceptionGivesErrorPageWithoutDetails(): void
    {
        $response = $this->get('/error');
        $this->assertStatus(500, $response);
        $this->assertStringContainsStringIgnoringCase('<html', $response->body);
        $this->assertStringNotContainsString('secret-boom', $response->body);
    }

    public function testUnknownRouteGivesNotFoundPage(): void
    {
        $response = $this->get('/no/such/page');
        $this->assertStatus(404, $response);
        $this->assertStringContainsStringIgnoringCase('<html', $response->body);
    }

    public function testHeaderSetcookieAndEchoReachTheResponse(): void
    {
        $response = $this->get('/native');
        $this->assertStatus(200, $response);
        $this->assertSame('yes', $response->header('x-native'), $response->describe());
        $this->assertSame('n1', $response->cookies()['native'] ?? null, $response->describe());
        $this->assertSame('echoed;body', $response->body);
    }

    /**
     * Symfony 6.3+'s sendEarlyHints() and code written for FrankenPHP send a
     * 103 through headers_send() where it exists: the adapters define it,
     * php-fpm has none. With the server's early_hints option off (the
     * default) nothing goes out, as under php-fpm. Either way the final
     * response has each of its headers once.
     */
    public function testEarlyHintsGoOutOnlyWhereTheServerSendsThem(): void
    {
        $response = $this->get('/hints');
        $this->assertStatus(200, $response);
        $this->assertSame(['hinted' => false], $response->json(), $response->describe());
        $this->assertSame([], $response->interim, $response->describe());
        $this->assertFinalResponseOfHints($response);
        // The header only the route's header() set stays where headers_send() exists, as under FrankenPHP.
        $this->assertSame(static::mode() === 'rapier' ? ['yes'] : [], $response->headers('x-hinted-only'),
            $response->describe());
    }

    public function testEarlyHintsGoOutBeforeTheResponseWithTheServersEarlyHintsOn(): void
    {
        if (static::mode() !== 'rapier') {
            $this->markTestSkipped('php-fpm has no headers_send(): its contract is the case above');
        }
        $server = AppServer::rapier(static::app(), ['early_hints' => true]);
        try {
            $client = new AppClient($server->baseUrl);
            $response = $client->get('/hints');
            $this->assertSame(200, $response->status, $response->describe() . "\n" . $server->logs());
            $this->assertSame(['hinted' => true], $response->json(), $response->describe());
            $this->assertSame([[103, [
                ['link', self::HINT_LINKS[0]],
                ['link', self::HINT_LINKS[1]],
                ['x-hint-stage', 'early'],
                ['x-hinted-only', 'yes'],
            ]]], $response->interim, $response->describe());
            $this->assertFinalResponseOfHints($response);
            $this->assertSame(['yes'], $response->headers('x-hinted-only'), $response->describe());
            // The next request starts with no hints and no header of this one's.
            $next = $client->get('/json?name=next');
            $this->assertSame([], $next->interim, $next->describe());
            $this->assertSame([], $next->headers('link'), $next->describe());
        } finally {
            $server->stop();
        }
    }

    /** Each Link once, and the route's final X-Hint-Stage in place of the one set for the 103. */
    private function assertFinalResponseOfHints(AppResponse $response): void
    {
        $this->assertSame(self::HINT_LINKS, $response->headers('link'), 'each Link once: ' . $response->describe());
        $this->assertSame(['final'], $response->headers('x-hint-stage'), $response->describe());
    }

    public function testAuthenticatedUserIsNotKeptForTheNextRequest(): void
    {
        $this->assertSame(['user' => 'alice'], $this->get('/whoami', ['X-User' => 'alice'])->json());
        $this->assertSame(['user' => null], $this->get('/whoami')->json());
    }

    public function testStreamedBody(): void
    {
        $response = $this->get('/stream');
        $this->assertStatus(200, $response);
        $this->assertSame('chunk1chunk2', $response->body);
        // Symfony 5's StreamedResponseListener, left on, sent the head itself as well: Date and Cache-Control twice.
        $names = array_values(array_diff(array_column($response->headers, 0), ['set-cookie']));
        $this->assertSame(array_values(array_unique($names)), $names, 'no header sent twice: ' . $response->describe());
    }

    /**
     * A Server-Sent Events loop written for php-fpm (ignore_user_abort, then
     * connection_aborted() after each event) stops on its own once its
     * client leaves; left running, it would hold the app's only worker.
     */
    public function testEventStreamStopsOnceItsClientLeaves(): void
    {
        $id = $this->leaveEventStream('');
        try {
            $this->assertSame('stopped: connection_aborted()', $this->whereEventsStopped($id), self::$server->logs());
        } finally {
            @unlink(sys_get_temp_dir() . "/rapier-test-events-$id");
        }
    }

    /**
     * PHP ends a script whose client left at its next output when
     * ignore_user_abort is off, its default: a loop that never checks stops
     * there, not after its 200 events (10 s). The request before it leaves
     * ignore_user_abort on, which must not carry over.
     */
    public function testEventStreamThatNeverChecksEndsAtItsFirstOutputAfterItsClientLeft(): void
    {
        $id = $this->leaveEventStream('&heed=0');
        try {
            $seen = $this->whereEventsStopped($id);
            $this->assertMatchesRegularExpression('/^sent \d+$/', $seen, self::$server->logs());
            $this->assertLessThan(100, (int) substr($seen, 5), 'it stopped soon after its client left');
            $this->assertStatus(200, $this->get('/'));
        } finally {
            @unlink(sys_get_temp_dir() . "/rapier-test-events-$id");
        }
    }

    /** Opens /events, reads two events, leaves; returns the stream's id. */
    private function leaveEventStream(string $query): string
    {
        if (static::app() === 'slim') {
            $this->markTestSkipped('a PSR-7 body is sent once the handler returns, not streamed');
        }
        $id = bin2hex(random_bytes(6));
        // Leaves ignore_user_abort on in the worker (tests/apps/events.php).
        $this->assertSame('running', $this->get("/events-seen?id=$id")->body);
        $url = parse_url(self::$server->baseUrl);
        $socket = stream_socket_client("tcp://{$url['host']}:{$url['port']}", $errno, $error, 5);
        $this->assertNotFalse($socket, $error);
        fwrite($socket, "GET /events?id=$id$query HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n");
        stream_set_timeout($socket, 10);
        $received = '';
        while (!str_contains($received, "data: 2\n\n") && !feof($socket)) {
            $chunk = fread($socket, 8192);
            if ($chunk === false || $chunk === '') {
                break;
            }
            $received .= $chunk;
        }
        fclose($socket);
        $this->assertStringContainsString("data: 2\n\n", $received, 'the events come as they are sent');

        return $id;
    }

    /** What the stream left in its file once it stopped changing (polled until then, 20 s at most). */
    private function whereEventsStopped(string $id): string
    {
        $deadline = microtime(true) + 20;
        $seen = null;
        do {
            usleep(300000);
            [$last, $seen] = [$seen, $this->get("/events-seen?id=$id")->body];
        } while (($seen === 'running' || $seen !== $last) && microtime(true) < $deadline);

        return $seen;
    }

    public function testFileDownload(): void
    {
        $response = $this->get('/download');
        $this->assertStatus(200, $response);
        $this->assertSame("download me\n", $response->body);
        $this->assertStringStartsWith('attachment; filename=', (string) $response->header('content-disposition'));
    }

    public function testSuperglobalsAreTheRequestsOwn(): void
    {
        $first = $this->get('/globals?a=1', ['Cookie' => 'c=2'])->json();
        $this->assertSame(
            ['get' => ['a' => '1'], 'cookie' => ['c' => '2'], 'method' => 'GET', 'uri' => '/globals?a=1', 'script' => '/index.php'],
            $first,
        );
        $second = $this->get('/globals')->json();
        $this->assertSame(
            ['get' => [], 'cookie' => [], 'method' => 'GET', 'uri' => '/globals', 'script' => '/index.php'],
            $second,
        );
    }

    public function testExitEndsTheRequestWithWhatPhpHasAndTheProcessGoesOn(): void
    {
        $pid = $this->get('/pid')->json()['pid'] ?? null;
        $this->assertIsInt($pid);
        $response = $this->get('/exit');
        $this->assertStatus(202, $response);
        $this->assertSame('yes', $response->header('x-exit'), $response->describe());
        $this->assertSame('echoed;bye', $response->body);
        $this->assertSame(['pid' => $pid], $this->get('/pid')->json(), 'another process serves after the exit');
        $state = $this->get('/leak/get')->json();
        $this->assertNull($state['static'], 'a static set before the exit is seen by the next request');
        $this->assertNull($state['global'], 'a global set before the exit is seen by the next request');
    }

    public function testExitInsideAStreamedBodyEndsIt(): void
    {
        $response = $this->get('/stream-exit');
        $this->assertStatus(200, $response);
        $this->assertSame('chunk1;bye', $response->body);
        $this->assertSame(['framework' => static::app(), 'hello' => 'after'], $this->get('/json?name=after')->json());
    }

    public function testDumpAndDieShowsTheDumpAsHtml(): void
    {
        $pid = $this->get('/pid')->json()['pid'] ?? null;
        $response = $this->get('/dd');
        // 500 under php-fpm, where dd() sets it; 200 from a worker, whose PHP_SAPI is "cli".
        $this->assertContains($response->status, [200, 500], $response->describe());
        $this->assertStringContainsString('sf-dump', $response->body, 'not an HTML dump: ' . $response->body);
        $this->assertMatchesRegularExpression('/>answer<.*>42</s', $response->body);
        $this->assertSame(['pid' => $pid], $this->get('/pid')->json(), 'another process serves after dd()');
    }

    public function testProcessSettingsChangedByOneRequestAreNotSeenByTheNext(): void
    {
        $before = $this->get('/settings');
        $this->assertStatus(200, $before);
        $changed = $this->get('/settings/change');
        $this->assertStatus(200, $changed);
        foreach ($changed->json() as $setting => $value) {
            $this->assertNotSame($before->json()[$setting], $value, "the route does not change $setting");
        }
        $after = $this->get('/settings');
        $this->assertStatus(200, $after);
        $this->assertSame($before->json(), $after->json(), 'settings the previous request changed');
    }

    public function testStateSetByOneRequestIsNotSeenByTheNext(): void
    {
        $set = $this->get('/leak/set');
        $this->assertStatus(200, $set);
        $this->assertSame('1', $set->header('x-leak'), 'the probe route sets a header');
        $response = $this->get('/leak/get');
        $this->assertStatus(200, $response);
        $this->assertNull($response->header('x-leak'), 'a header of the previous request');
        $state = $response->json();
        foreach (['static', 'instance', 'config', 'singleton', 'global', 'session'] as $kind) {
            $this->assertNull($state[$kind], "$kind state of the previous request is visible: " . $response->body);
        }
        if (array_key_exists('locale', $state)) {
            $this->assertSame('en', $state['locale']);
        }
        if (array_key_exists('controller', $state)) {
            $this->assertNull($state['controller'], 'the controller instance of the previous request');
        }
    }
}
