<?php

declare(strict_types=1);

namespace Rapier\Tests\Grpc;

use Google\Protobuf\Any;
use Google\Rpc\BadRequest;
use Helloworld\HelloReply;
use Helloworld\HelloRequest;
use Helloworld\HelloStreamRequest;
use LogicException;
use PHPUnit\Framework\TestCase;
use Rapier\Coroutine;
use Rapier\Grpc\Client;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\GrpcTools;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\TlsCertificate;
use RuntimeException;
use ValueError;

use function Rapier\go;
use function Rapier\run;

/**
 * Rapier\Grpc\Client against two servers that share no code: Rapier's own
 * (tests/apps/grpc/app.php under `rapier serve`, over h2c and over TLS with
 * client certificates) and gRPC's C core (python3-grpcio, driven by
 * tests/Support/grpc_server.py). Calls are made from this process, both
 * blocking (outside a coroutine) and from coroutines, where a call must
 * leave the others running.
 */
final class GrpcClientTest extends TestCase
{

    private static ?ServedApp $rapier = null;
    private static ?ServedApp $rapierTls = null;
    /** @var resource|null */
    private static $grpcio = null;
    private static string $dir;
    private static int $port;
    private static int $tlsPort;
    private static int $grpcioPort;
    private static TlsCertificate $serverCert;
    private static TlsCertificate $clientCert;

    public static function setUpBeforeClass(): void
    {
        if (!extension_loaded('curl')) {
            self::markTestSkipped('ext/curl is not loaded (php8.2-curl; ' . GrpcTools::DEPS . ')');
        }
        GrpcTools::require();
        $root = dirname(__DIR__, 2);
        // The message classes the apps use, for this process too.
        spl_autoload_register(static function (string $class) use ($root): void {
            foreach (["$root/examples/grpc/generated", "$root/tests/apps/grpc/generated"] as $dir) {
                $file = "$dir/" . str_replace('\\', '/', $class) . '.php';
                if (is_file($file)) {
                    require $file;
                    return;
                }
            }
        });
        self::$dir = Cli::tempDirectory();
        mkdir(self::$dir . '/pb2');
        GrpcTools::protoc(["--proto_path=$root/examples/grpc", '--python_out=' . self::$dir . '/pb2', "$root/examples/grpc/helloworld.proto"]);
        self::$serverCert = TlsCertificate::create(self::$dir);
        self::$clientCert = TlsCertificate::createClient(self::$dir, 'caller');

        self::$port = Cli::freePort();
        self::$rapier = Cli::serve(["$root/tests/apps/grpc/app.php", '--port', (string) self::$port, '--workers', '1',
            '--pid-file', self::$dir . '/rapier.pid', '--log-file', self::$dir . '/rapier.log']);
        self::$tlsPort = Cli::freePort();
        self::$rapierTls = Cli::serve(["$root/tests/apps/grpc/app.php", '--port', (string) self::$tlsPort, '--workers', '1',
            '--tls-cert', self::$serverCert->certFile, '--tls-key', self::$serverCert->keyFile,
            '--tls-client-ca', self::$clientCert->caFile,
            '--pid-file', self::$dir . '/rapier-tls.pid', '--log-file', self::$dir . '/rapier-tls.log']);
        self::$grpcioPort = self::startGrpcio();
        self::$rapier->waitForWorkers(self::$dir . '/rapier.pid', 1);
        self::$rapierTls->waitForWorkers(self::$dir . '/rapier-tls.pid', 1);
    }

    public static function tearDownAfterClass(): void
    {
        self::$rapier?->stop();
        self::$rapierTls?->stop();
        self::$rapier = self::$rapierTls = null;
        if (is_resource(self::$grpcio)) {
            proc_terminate(self::$grpcio);
            proc_close(self::$grpcio);
        }
        self::$grpcio = null;
        if (isset(self::$dir)) {
            Cli::removeDirectory(self::$dir);
        }
    }

    public function testUnaryWithMetadataBothWays(): void
    {
        $client = new Client('127.0.0.1:' . self::$port, timeout: 10.0, metadata: ['x-tenant' => 'shop']);
        $call = $client->call('/rapier.test.Probe/Metadata', HelloReply::class,
            ['x-request' => ['one', 'two'], 'x-trace-bin' => "\x00\x01\xfe\xff"]);
        $call->write(new HelloRequest());
        $seen = json_decode($call->reply()->getMessage(), true, flags: JSON_THROW_ON_ERROR);

        $this->assertSame('shop', $seen['metadata']['x-tenant'], 'the client\'s metadata');
        $this->assertSame('one, two', $seen['metadata']['x-request'], 'a key sent twice');
        $this->assertSame(base64_encode("\x00\x01\xfe\xff"), $seen['metadata']['x-trace-bin'], 'bytes under a -bin key');
        $this->assertStringStartsWith('grpc-php-rapier/', $seen['metadata']['user-agent']);
        $this->assertSame('HTTP/2.0', $seen['protocol']);
        $this->assertGreaterThan(0.0, $seen['time_remaining'], 'the deadline went as grpc-timeout');
        $this->assertLessThanOrEqual(10.0, $seen['time_remaining']);
        $this->assertSame('from-probe', $call->headers()['x-header']);
        $this->assertSame("\x00\x01\xfe\xff header", $call->headers()['x-header-bin']);
        $this->assertSame(['x-trailer' => 'done', 'x-trailer-bin' => "\xff\x00 trailer"], $call->trailers());
        $this->assertSame(Status::OK, $call->status());

        $reply = $client->unary('/helloworld.Greeter/SayHello', new HelloRequest(['name' => 'Zoë']), HelloReply::class);
        $this->assertSame('Hello, Zoë!', $reply->getMessage());
    }

    public function testErrorsCarryTheirStatusMessageAndDetails(): void
    {
        $client = new Client('127.0.0.1:' . self::$port, timeout: 10.0);
        $e = $this->failure(fn () => $client->unary('/rapier.test.Probe/Fail', new HelloRequest(['name' => 'no such user: Zoë, 100%']),
            HelloReply::class, ['x-code' => '5']));
        $this->assertSame(Status::NOT_FOUND, $e->status);
        $this->assertSame(5, $e->getCode());
        $this->assertSame('no such user: Zoë, 100%', $e->getMessage(), 'grpc-message percent-decoded');
        $this->assertSame([], $e->details);

        $e = $this->failure(fn () => $client->unary('/rapier.test.Probe/FailWithDetails', new HelloRequest(['name' => 'x']),
            HelloReply::class));
        $this->assertSame(Status::INVALID_ARGUMENT, $e->status);
        $this->assertSame(['type.googleapis.com/google.rpc.BadRequest', 'type.googleapis.com/google.rpc.RetryInfo',
            'type.googleapis.com/helloworld.HelloReply'], array_map(static fn (Any $a): string => $a->getTypeUrl(), $e->details));
        new BadRequest(); // unpack() finds only types whose descriptors are loaded, as a class's first use does
        $badRequest = $e->details[0]->unpack();
        $this->assertInstanceOf(BadRequest::class, $badRequest);
        $this->assertSame('must name someone: x', $badRequest->getFieldViolations()[0]->getDescription());

        $e = $this->failure(fn () => $client->unary('/rapier.test.Probe/Crash', new HelloRequest(['name' => 'secret']), HelloReply::class));
        $this->assertSame(Status::UNKNOWN, $e->status);
        $this->assertStringNotContainsString('secret', $e->getMessage());

        $e = $this->failure(fn () => $client->unary('/rapier.test.Probe/NoSuchMethod', new HelloRequest(), HelloReply::class));
        $this->assertSame(Status::UNIMPLEMENTED, $e->status, $e->getMessage());

        // A streaming method called as unary: its second reply breaks the call's shape.
        $e = $this->failure(fn () => $client->unary('/helloworld.Greeter/SayHelloStream',
            new HelloStreamRequest(['name' => 'two', 'count' => 2]), HelloReply::class));
        $this->assertSame([Status::INTERNAL, 'the server sent more than one reply to /helloworld.Greeter/SayHelloStream'],
            [$e->status, $e->getMessage()]);
    }

    public function testEveryKindOfCall(): void
    {
        $client = new Client('127.0.0.1:' . self::$port, timeout: 10.0);
        $replies = [];
        foreach ($client->serverStream('/helloworld.Greeter/SayHelloStream', new HelloStreamRequest(['name' => 'S', 'count' => 3]),
            HelloReply::class) as $reply) {
            $replies[] = $reply->getMessage();
        }
        $this->assertSame(['Hello, S! (1 of 3)', 'Hello, S! (2 of 3)', 'Hello, S! (3 of 3)'], $replies);

        // Client streaming: each message reaches the method before the next is written.
        $call = $client->call('/rapier.test.Probe/Gather', HelloReply::class);
        foreach (['a', 'b', 'c'] as $name) {
            $call->write(new HelloRequest(['name' => $name]));
        }
        $arrivals = json_decode($call->reply()->getMessage(), true, flags: JSON_THROW_ON_ERROR);
        $this->assertSame(['a', 'b', 'c'], array_column($arrivals, 0));

        // Bidirectional: each reply read before the next request is written.
        $call = $client->call('/rapier.test.Probe/Chat', HelloReply::class);
        foreach (['one', 'two', 'three'] as $name) {
            $call->write(new HelloRequest(['name' => $name]));
            $this->assertSame($name, $call->read()?->getMessage());
        }
        $call->writesDone();
        $this->assertNull($call->read(), 'the end of the replies');
        $this->assertSame(Status::OK, $call->status());
        $this->assertContains('chat ended after 3', $this->events($client));
    }

    public function testAWriterFasterThanTheServerWaitsInBoundedMemory(): void
    {
        $client = new Client('127.0.0.1:' . self::$port, timeout: 30.0);
        $call = $client->call('/rapier.test.Probe/Gather', HelloReply::class);
        $held = (fn (): int => strlen($this->out))->bindTo($call, $call);
        $most = 0;
        for ($i = 0; $i < 3000; $i++) {
            $call->write(new HelloRequest(['name' => sprintf('%04d', $i) . str_repeat('x', 1000)]));
            $most = max($most, $held());
        }
        $arrivals = json_decode($call->reply()->getMessage(), true, flags: JSON_THROW_ON_ERROR);

        $this->assertCount(3000, $arrivals, 'about 3 MB in 3,000 messages');
        $this->assertSame('2999', substr($arrivals[2999][0], 0, 4));
        $this->assertLessThan(80 * 1024, $most, 'the request bytes held stay near the 64 KiB write() waits for');
    }

    public function testACallInACoroutineLetsTheOthersRun(): void
    {
        // HoldStream waits after its first reply until Release is called. Were the
        // client to block the process, Release could not be sent and the stream
        // would end with "gave up waiting".
        $client = new Client('127.0.0.1:' . self::$port, timeout: 10.0);
        $seen = [];
        run(static function () use ($client, &$seen): void {
            go(static function () use ($client, &$seen): void {
                foreach ($client->serverStream('/rapier.test.Probe/HoldStream', new HelloRequest(['name' => '5']), HelloReply::class)
                    as $reply) {
                    $seen[] = 'stream: ' . $reply->getMessage();
                }
            });
            go(static function () use ($client, &$seen): void {
                Coroutine::sleep(0.2);
                $seen[] = 'release: ' . $client->unary('/rapier.test.Probe/Release', new HelloRequest(), HelloReply::class)->getMessage();
            });
        });

        $this->assertSame(['stream: first', 'release: released', 'stream: released'], $seen);
    }

    public function testTheDeadlineEndsTheCallOnBothSides(): void
    {
        $client = new Client('127.0.0.1:' . self::$port);
        $e = $this->failure(fn () => $client->unary('/rapier.test.Probe/Sleep', new HelloRequest(['name' => '5']), HelloReply::class,
            timeout: 0.3));
        $this->assertSame(Status::DEADLINE_EXCEEDED, $e->status, $e->getMessage());

        // The server's method was canceled too (its grpc-timeout, or the stream's reset).
        $canceled = static fn (array $events): bool => preg_grep('/^sleep 5 canceled after /', $events) !== [];
        for ($i = 0; $i < 50 && !$canceled($events = $this->events($client)); $i++) {
            usleep(100000);
        }
        $this->assertTrue($canceled($events), json_encode($events));
    }

    public function testCancelResetsTheStream(): void
    {
        $client = new Client('127.0.0.1:' . self::$port, timeout: 10.0);
        $call = $client->call('/rapier.test.Probe/Chat', HelloReply::class);
        $call->write(new HelloRequest(['name' => 'only']));
        $this->assertSame('only', $call->read()?->getMessage());
        $call->cancel();

        $this->assertSame(Status::CANCELLED, $call->status());
        $e = $this->failure(fn () => $call->read());
        $this->assertSame(Status::CANCELLED, $e->status);
        $brokeOff = static fn (array $events): bool => preg_grep('/^chat broke off after 1: /', $events) !== [];
        for ($i = 0; $i < 50 && !$brokeOff($events = $this->events($client)); $i++) {
            usleep(100000);
        }
        $this->assertTrue($brokeOff($events), json_encode($events));
    }

    public function testCompressionBothWaysAndTheReceiveBound(): void
    {
        $name = str_repeat('compressible ', 400);
        $gzip = new Client('127.0.0.1:' . self::$port, timeout: 10.0, compression: 'gzip');
        $seen = json_decode($gzip->unary('/rapier.test.Probe/Inspect', new HelloRequest(['name' => $name]), HelloReply::class)
            ->getMessage(), true, flags: JSON_THROW_ON_ERROR);
        $this->assertSame('gzip', $seen['grpc_encoding']);
        $this->assertSame(md5($name), $seen['name_md5'], 'the server inflated what was sent');
        $this->assertLessThan(strlen($name) / 4, $seen['body_bytes'], 'the request went compressed');

        $plain = new Client('127.0.0.1:' . self::$port, timeout: 10.0);
        $call = $plain->call('/rapier.test.Probe/Compressed', HelloReply::class, ['x-compression' => 'deflate']);
        $call->write(new HelloRequest(['name' => '100000']));
        $this->assertSame(100000, strlen($call->reply()->getMessage()));
        $this->assertSame('deflate', $call->trailers()['x-compression'], 'the reply came compressed, and was inflated');

        $small = new Client('127.0.0.1:' . self::$port, timeout: 10.0, maxReceiveMessageBytes: 1000);
        $e = $this->failure(fn () => $small->unary('/rapier.test.Probe/Compressed', new HelloRequest(['name' => '5000']),
            HelloReply::class, ['x-compression' => 'identity']));
        $this->assertSame(Status::RESOURCE_EXHAUSTED, $e->status);
        $this->assertSame('grpc: received message larger than max (5003 vs. 1000)', $e->getMessage(), 'refused from its prefix');
        $e = $this->failure(fn () => $small->unary('/rapier.test.Probe/Compressed', new HelloRequest(['name' => '5000']),
            HelloReply::class, ['x-compression' => 'gzip']));
        $this->assertSame(Status::RESOURCE_EXHAUSTED, $e->status);
        $this->assertStringEndsWith('once decompressed', $e->getMessage());
        $this->assertSame('still here', $small->unary('/rapier.test.Probe/Echo', new HelloRequest(['name' => 'still here']),
            HelloReply::class)->getMessage(), 'the client serves on');
    }

    public function testTlsWithAClientCertificateKeepsTheConnection(): void
    {
        $tls = new Client('https://127.0.0.1:' . self::$tlsPort, timeout: 10.0, caFile: self::$serverCert->certFile,
            certFile: self::$clientCert->certFile, keyFile: self::$clientCert->keyFile);
        $port = fn (): int => json_decode($tls->unary('/rapier.test.Probe/Metadata', new HelloRequest(), HelloReply::class)
            ->getMessage(), true, flags: JSON_THROW_ON_ERROR)['peer_port'];
        $first = $port();
        $this->assertSame($first, $port(), 'a call after another goes on the same connection');

        // A call while another is open gets a connection of its own; both are kept afterwards.
        $open = $tls->call('/rapier.test.Probe/Chat', HelloReply::class);
        $open->write(new HelloRequest(['name' => 'hold']));
        $this->assertSame('hold', $open->read()?->getMessage());
        $second = $port();
        $this->assertNotSame($first, $second);
        $open->writesDone();
        $this->assertNull($open->read());
        $this->assertContains($port(), [$first, $second]);
        $this->assertContains($port(), [$first, $second]);

        $anonymous = new Client('https://127.0.0.1:' . self::$tlsPort, timeout: 10.0, caFile: self::$serverCert->certFile);
        $e = $this->failure(fn () => $anonymous->unary('/rapier.test.Probe/Echo', new HelloRequest(), HelloReply::class));
        $this->assertSame(Status::UNAVAILABLE, $e->status, 'no client certificate: the handshake is refused');

        $untrusting = new Client('https://127.0.0.1:' . self::$tlsPort, timeout: 10.0);
        $e = $this->failure(fn () => $untrusting->unary('/rapier.test.Probe/Echo', new HelloRequest(), HelloReply::class));
        $this->assertSame(Status::UNAVAILABLE, $e->status, 'a server certificate no system authority signed');
    }

    public function testAgainstGrpcio(): void
    {
        $client = new Client('127.0.0.1:' . self::$grpcioPort, timeout: 10.0, metadata: ['x-from' => 'php']);
        $call = $client->call('/helloworld.Greeter/SayHello', HelloReply::class, ['x-echo-bin' => "\x00\x01\xff"]);
        $call->write(new HelloRequest(['name' => 'Zoë']));
        $this->assertSame('Hello, Zoë! (from php)', $call->reply()->getMessage(), 'a gzip-compressed reply');
        $this->assertSame('grpcio', $call->headers()['x-server']);
        $this->assertSame("\x00\x01\xff", $call->headers()['x-echo-bin'], 'bytes there and back');
        $this->assertSame(['x-greeted-bin' => 'Zoë', 'x-timeout' => 'yes'], $call->trailers());

        $e = $this->failure(fn () => $client->unary('/helloworld.Greeter/SayHello', new HelloRequest(), HelloReply::class));
        $this->assertSame([Status::INVALID_ARGUMENT, 'name is empty: say who to greet'], [$e->status, $e->getMessage()]);

        $replies = [];
        $e = $this->failure(function () use ($client, &$replies): void {
            foreach ($client->serverStream('/helloworld.Greeter/SayHelloStream', new HelloStreamRequest(['name' => 'fail', 'count' => 2]),
                HelloReply::class) as $reply) {
                $replies[] = $reply->getMessage();
            }
        });
        $this->assertSame(['Hello, fail! (1 of 2)', 'Hello, fail! (2 of 2)'], $replies, 'the replies before the error');
        $this->assertSame([Status::DATA_LOSS, 'failed after 2 replies'], [$e->status, $e->getMessage()]);

        $gzip = new Client('127.0.0.1:' . self::$grpcioPort, timeout: 10.0, compression: 'gzip');
        $call = $gzip->call('/helloworld.Greeter/SayHelloToAll', HelloReply::class);
        foreach (['a', str_repeat('b', 2000), 'c'] as $name) {
            $call->write(new HelloRequest(['name' => $name]));
        }
        $this->assertSame('Hello, a, ' . str_repeat('b', 2000) . ', c!', $call->reply()->getMessage());

        $call = $client->call('/helloworld.Greeter/SayHelloChat', HelloReply::class);
        foreach (['x', 'y'] as $name) {
            $call->write(new HelloRequest(['name' => $name]));
            $this->assertSame("Hello, $name!", $call->read()?->getMessage());
        }
        $call->writesDone();
        $this->assertNull($call->read());

        $e = $this->failure(fn () => $client->unary('/helloworld.Greeter/Nope', new HelloRequest(), HelloReply::class));
        $this->assertSame(Status::UNIMPLEMENTED, $e->status, $e->getMessage());
        // Last: grpcio may reset a new stream while it winds down a canceled one (seen as curl error 92, UNAVAILABLE).
        $e = $this->failure(fn () => $client->unary('/helloworld.Greeter/SayHello', new HelloRequest(['name' => 'sleep 5']),
            HelloReply::class, timeout: 0.3));
        $this->assertSame(Status::DEADLINE_EXCEEDED, $e->status, $e->getMessage());
    }

    public function testTheExampleClient(): void
    {
        $command = [PHP_BINARY, '-d', 'extension=' . Cli::extension(), dirname(__DIR__, 2) . '/examples/grpc/client.php',
            '127.0.0.1:' . self::$port];
        exec(implode(' ', array_map('escapeshellarg', $command)) . ' 2>&1', $out, $rc);

        $this->assertSame(0, $rc, implode("\n", $out));
        $this->assertEqualsCanonicalizing([
            'unary: Hello, world!', 'unary: INVALID_ARGUMENT: name is empty: say who to greet',
            'server stream: Hello, stream! (1 of 3)', 'server stream: Hello, stream! (2 of 3)', 'server stream: Hello, stream! (3 of 3)',
            'client stream: Hello, ann, bob, cy!', 'chat: Hello, ann!', 'chat: Hello, bob!', 'chat ended: OK',
        ], $out);
    }

    public function testNoServerIsUnavailable(): void
    {
        $client = new Client('127.0.0.1:' . Cli::freePort(), timeout: 10.0);
        $e = $this->failure(fn () => $client->unary('/helloworld.Greeter/SayHello', new HelloRequest(['name' => 'a']), HelloReply::class));
        $this->assertSame(Status::UNAVAILABLE, $e->status);
        $this->assertStringContainsString('curl error 7', $e->getMessage());
    }

    public function testMisuseIsRefusedWithAReason(): void
    {
        $client = new Client('127.0.0.1:' . self::$port, timeout: 10.0);
        $refusals = [
            fn () => new Client('127.0.0.1'),
            fn () => new Client('localhost:99999'),
            fn () => new Client('unix:relative.sock'),
            fn () => new Client('127.0.0.1:1', compression: 'snappy'),
            fn () => new Client('127.0.0.1:1', timeout: 0.0),
            fn () => new Client('127.0.0.1:1', caFile: '/etc/hosts'),
            fn () => new Client('127.0.0.1:1', metadata: ['grpc-timeout' => '1S']),
            fn () => new Client('127.0.0.1:1', metadata: ['x-text' => "caf\xc3\xa9"]),
            fn () => $client->call('helloworld.Greeter/SayHello', HelloReply::class),
            fn () => $client->call('/helloworld.Greeter/SayHello', \stdClass::class),
            fn () => $client->call('/helloworld.Greeter/SayHello', HelloReply::class, timeout: -1.0),
        ];
        foreach ($refusals as $i => $refusal) {
            try {
                $refusal();
                $this->fail("refusal $i was accepted");
            } catch (ValueError $e) {
                $this->assertNotSame('', $e->getMessage());
            }
        }

        $call = $client->call('/rapier.test.Probe/Chat', HelloReply::class);
        $call->writesDone();
        $this->expectException(LogicException::class);
        $this->expectExceptionMessage('writesDone() ended its requests');
        $call->write(new HelloRequest());
    }

    private static function startGrpcio(): int
    {
        $spec = [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', self::$dir . '/grpcio.log', 'a']];
        $proc = proc_open([GrpcTools::PYTHON, dirname(__DIR__) . '/Support/grpc_server.py', self::$dir . '/pb2'], $spec, $pipes);
        if (!is_resource($proc)) {
            throw new RuntimeException('cannot start tests/Support/grpc_server.py');
        }
        self::$grpcio = $proc;
        $line = (string) fgets($pipes[1]);
        if (preg_match('/^port (\d+)$/', trim($line), $m) !== 1) {
            throw new RuntimeException("grpc_server.py did not start: '$line' " . file_get_contents(self::$dir . '/grpcio.log'));
        }

        return (int) $m[1];
    }

    /** @param callable(): mixed $call */
    private function failure(callable $call): GrpcException
    {
        try {
            $call();
        } catch (GrpcException $e) {
            return $e;
        }
        $this->fail('the call did not fail');
    }

    /** @return list<string> what tests/apps/grpc's probe recorded */
    private function events(Client $client): array
    {
        return json_decode($client->unary('/rapier.test.Probe/Stats', new HelloRequest(), HelloReply::class)->getMessage(),
            true, flags: JSON_THROW_ON_ERROR)['events'];
    }
}
