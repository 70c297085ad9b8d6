<?php

declare(strict_types=1);

namespace Rapier\Tests\Grpc;

use PHPUnit\Framework\TestCase;
use Rapier\Grpc\Internal\ProtoWire;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\GrpcTools;
use Rapier\Tests\Support\PhpProcess;
use Rapier\Tests\Support\ServedApp;
use RuntimeException;

/**
 * Rapier\Grpc\Server against gRPC's own C core (python3-grpcio, driven by
 * tests/Support/grpc_client.py) and curl: examples/grpc/app.php as shipped,
 * plus the rapier.test.Probe service of tests/apps/grpc/, served by a real
 * `rapier serve` with one worker and no --http2 flag (a gRPC app turns
 * HTTP/2 on by itself; the client speaks h2c by prior knowledge).
 */
final class GrpcServerTest extends TestCase
{
    /** Debian's grpc-proto: gRPC's own .proto files */
    private const GRPC_PROTO = '/usr/share/grpc-proto';
    /** googleapis' google/rpc/*.proto, from Debian's golang-github-gogo-googleapis-dev */
    private const GOOGLEAPIS = '/usr/share/gocode/src/github.com/gogo/googleapis';

    private static ?ServedApp $rapier = null;
    private static string $dir;
    private static int $port;

    public static function setUpBeforeClass(): void
    {
        GrpcTools::require();
        self::$dir = Cli::tempDirectory();
        $root = dirname(__DIR__, 2);
        mkdir(self::$dir . '/pb2');
        // Python's message classes, from the same .proto files the PHP side uses.
        foreach (["$root/examples/grpc" => 'helloworld.proto', "$root/tests/Support/grpc" => 'health.proto'] as $dir => $proto) {
            GrpcTools::protoc(["--proto_path=$dir", '--python_out=' . self::$dir . '/pb2', "$dir/$proto"]);
        }
        // gRPC's own reflection.proto, each version in a directory of its own (the same file name in both), and
        // its health.proto as protoc describes it (Debian's grpc-proto).
        foreach (['v1', 'v1alpha'] as $version) {
            $proto = self::GRPC_PROTO . "/grpc/reflection/$version/reflection.proto";
            if (is_file($proto)) {
                mkdir(self::$dir . "/pb2/$version");
                GrpcTools::protoc(['--proto_path=' . dirname($proto), '--python_out=' . self::$dir . "/pb2/$version", $proto]);
            }
        }
        // googleapis' rich error model, to read grpc-status-details-bin as gRPC's status libraries do.
        if (is_file(self::GOOGLEAPIS . '/google/rpc/error_details.proto')) {
            GrpcTools::protoc(['--proto_path=' . self::GOOGLEAPIS, '--proto_path=/usr/include', '--python_out=' . self::$dir . '/pb2',
                self::GOOGLEAPIS . '/google/rpc/status.proto', self::GOOGLEAPIS . '/google/rpc/error_details.proto']);
        }
        if (is_file(self::GRPC_PROTO . '/grpc/health/v1/health.proto')) {
            GrpcTools::protoc(['--proto_path=' . self::GRPC_PROTO, '--descriptor_set_out=' . self::$dir . '/pb2/health.binpb',
                self::GRPC_PROTO . '/grpc/health/v1/health.proto']);
        }
        self::$port = Cli::freePort();
        self::$rapier = Cli::serve(["$root/tests/apps/grpc/app.php", '--port', (string) self::$port, '--workers', '1',
            '--pid-file', self::$dir . '/rapier.pid', '--log-file', self::$dir . '/rapier.log']);
        self::$rapier->waitForWorkers(self::$dir . '/rapier.pid', 1);
    }

    public static function tearDownAfterClass(): void
    {
        self::$rapier?->stop();
        self::$rapier = null;
        if (isset(self::$dir)) {
            Cli::removeDirectory(self::$dir);
        }
    }

    public function testServeTurnsHttp2OnForAGrpcApp(): void
    {
        $this->assertStringContainsString('(gRPC)', self::$rapier->stdout(), 'the banner names the kind of app');
        $seen = $this->client('metadata');
        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $this->assertSame('HTTP/2.0', $seen['message']['protocol']);
    }

    public function testUnary(): void
    {
        $seen = $this->client('unary', 'Zoë');

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $this->assertSame('Hello, Zoë!', $seen['message']);
        $this->assertSame('rapier', $seen['initial']['x-greeter'] ?? null, 'header metadata from setHeader()');
        $this->assertSame('yes', $seen['trailing']['x-greeted'] ?? null, 'trailer metadata from setTrailer()');
    }

    public function testAGrpcExceptionOfTheExample(): void
    {
        $seen = $this->client('unary', '');

        $this->assertSame(['code' => 'INVALID_ARGUMENT', 'details' => 'name is empty: say who to greet'], $seen);
    }

    public function testRichErrorDetailsReachTheClient(): void
    {
        if (!is_file(self::GOOGLEAPIS . '/google/rpc/status.proto')) {
            $this->markTestSkipped('googleapis\' .proto files are not installed (golang-github-gogo-googleapis-dev; ' . GrpcTools::DEPS . ')');
        }
        $seen = $this->client('rich_error', 'Zoë');

        $this->assertSame('INVALID_ARGUMENT', $seen['code'], json_encode($seen));
        $this->assertSame('the request is invalid: Zoë', $seen['details']);
        $this->assertSame(['code' => 3, 'message' => 'the request is invalid: Zoë', 'details' => [
            ['type' => 'type.googleapis.com/google.rpc.BadRequest',
                'text' => "field_violations {\n  field: \"name\"\n  description: \"must name someone: Zo\\303\\253\"\n}"],
            ['type' => 'type.googleapis.com/google.rpc.RetryInfo', 'text' => "retry_delay {\n  seconds: 1\n  nanos: 500000000\n}"],
            ['type' => 'type.googleapis.com/helloworld.HelloReply', 'text' => 'message: "a detail of the application\\\'s own"'],
        ]], $seen['status']);
        // Plain errors carry none.
        $this->assertSame(['code' => 'INVALID_ARGUMENT', 'details' => 'name is empty: say who to greet', 'status' => null],
            $this->client('rich_error_plain'));
    }

    public function testRichErrorDetailsInGrpcWeb(): void
    {
        $web = $this->web('/rapier.test.Probe/FailWithDetails', self::frame(self::helloRequest('x')));

        $this->assertSame('3', $web['trailers']['grpc-status'] ?? null, $web['raw']);
        $status = ProtoWire::fields((string) base64_decode($web['trailers']['grpc-status-details-bin'] ?? '', true));
        $this->assertSame(3, ProtoWire::last($status, 1));
        $this->assertSame('the request is invalid: x', ProtoWire::last($status, 2));
        $types = array_map(static fn (string $any): int|string|null => ProtoWire::last(ProtoWire::fields($any), 1),
            ProtoWire::strings($status, 3));
        $this->assertSame(['type.googleapis.com/google.rpc.BadRequest', 'type.googleapis.com/google.rpc.RetryInfo',
            'type.googleapis.com/helloworld.HelloReply'], $types);
    }

    public function testServerStreamingSendsTheRepliesInOrder(): void
    {
        $seen = $this->client('server_stream', '25');

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $expected = array_map(static fn (int $i): string => "Hello, stream! ($i of 25)", range(1, 25));
        $this->assertSame($expected, $seen['replies']);
        // The handler sleeps 10 ms between replies: received as made, not all at the end.
        $this->assertGreaterThan(0.1, $seen['spread'], 'the replies arrived spread over the handler\'s run');
    }

    public function testAStreamedReplyReachesTheClientBeforeTheHandlerEnds(): void
    {
        $seen = $this->client('hold_stream');

        $this->assertSame('first', $seen['first']);
        $this->assertSame(['released'], $seen['rest'],
            'the handler was released by the client after the first reply, not by its own 10 s limit');
        $this->assertSame('OK', $seen['code']);
    }

    public function testHeaderMetadataAfterTheFirstReplyIsRefused(): void
    {
        $seen = $this->client('late_header');

        $this->assertSame('OK', $seen['code']);
        $this->assertSame('first', $seen['replies'][0]);
        $this->assertStringStartsWith('LogicException: cannot set header metadata \'x-late\'', $seen['replies'][1]);
        $this->assertStringStartsWith('LogicException: cannot compress with \'gzip\': the response headers', $seen['replies'][2]);
    }

    public function testClientStreaming(): void
    {
        $this->assertSame('Hello, ann, bob, çé!', $this->client('client_stream', json_encode(['ann', 'bob', 'çé']))['message']);
        $this->assertSame('Hello, nobody!', $this->client('client_stream', '[]')['message'], 'a stream of no messages');
    }

    public function testABidiMethodAnswersEachMessageBeforeTheClientSendsTheNext(): void
    {
        // The client sends a name only once the reply to the one before has come: a server that
        // read the whole body first would leave both waiting until the deadline.
        $names = ['ann', 'bob', 'çé', '', 'dee'];
        $seen = $this->client('chat', json_encode(['names' => $names, 'interleaved' => true, 'timeout' => 10]));

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $this->assertSame(['Hello, ann!', 'Hello, bob!', 'Hello, çé!', 'Hello, !', 'Hello, dee!'], $seen['replies']);

        $halfDuplex = $this->client('chat', json_encode(['names' => $names, 'interleaved' => false]));
        $this->assertSame(['code' => 'OK', 'replies' => $seen['replies']], $halfDuplex, 'all sent first, then all read');
        $none = $this->client('chat', json_encode(['names' => [], 'interleaved' => true]));
        $this->assertSame(['code' => 'OK', 'replies' => []], $none, 'a stream of no messages');
    }

    public function testClientStreamMessagesReachTheMethodWhileTheClientStillSends(): void
    {
        $seen = $this->client('gather', '[4, 0.3]');

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $this->assertCount(4, $seen['arrived']);
        for ($i = 0; $i < 3; $i++) {
            // The same clock (wall time) in both processes.
            $this->assertLessThan($seen['sent'][$i + 1], $seen['arrived'][$i],
                "message $i reached the method before the client sent message " . ($i + 1) . ': ' . json_encode($seen));
        }
    }

    public function testAClientThatCancelsMidStreamLeavesTheWorkerServing(): void
    {
        $seen = $this->client('cancel_chat');

        $this->assertSame('one', $seen['first']);
        $this->assertSame('CANCELLED', $seen['code']);
        // The method was waiting for the next message: the reset ended that wait, as a GrpcException.
        $this->assertCount(1, $seen['new_events'], json_encode($seen));
        $this->assertStringStartsWith('chat broke off after 1: CANCELLED: ', $seen['new_events'][0]);
        $this->assertStringContainsString('reset the stream', $seen['new_events'][0]);
        $this->assertSame($seen['coroutines_before'], $seen['coroutines_after'], 'no coroutine left behind');
        $this->assertTrue($seen['same_worker']);
        $this->assertSame('Hello, again!', $seen['then']['message'] ?? null);
    }

    public function testAClientStreamIsBoundedPerMessageNotByMaxBodySize(): void
    {
        // Three messages of 3 MiB, each under maxReceiveMessageBytes, together over the 8 MiB max_body_size.
        $seen = $this->client('client_stream_size', json_encode([3, 3 << 20]));
        $this->assertSame('OK', $seen['code'], json_encode($seen));

        $seen = $this->client('client_stream_size', json_encode([2, 5 << 20]));
        $this->assertSame('RESOURCE_EXHAUSTED', $seen['code'], 'one message over maxReceiveMessageBytes: ' . json_encode($seen));
        $this->assertStringContainsString('received message larger than max', $seen['details']);
        $this->assertSame('OK', $this->client('unary', 'after')['code'], 'the worker serves on');
    }

    public function testAUnaryCallTakesExactlyOneMessage(): void
    {
        $none = $this->curl('/helloworld.Greeter/SayHello', '');
        $this->assertSame('13', $none['fields']['grpc-status'] ?? null, $none['raw']);
        $this->assertStringContainsString('holds no message', $none['fields']['grpc-message'] ?? '');

        $two = $this->curl('/helloworld.Greeter/SayHello',
            self::frame(self::helloRequest('a')) . self::frame(self::helloRequest('b')));
        $this->assertSame('13', $two['fields']['grpc-status'] ?? null, $two['raw']);
        $this->assertStringContainsString('more than one message', $two['fields']['grpc-message'] ?? '');
    }

    public function testAGrpcExceptionCodeAndANonAsciiMessageRoundTrip(): void
    {
        $message = "Zoë's 100% wrong: ☃ \u{1F600}\nsecond line";
        $seen = $this->client('fail', json_encode([9, $message]));

        $this->assertSame(['code' => 'FAILED_PRECONDITION', 'details' => $message], $seen);
        $this->assertSame('PERMISSION_DENIED', $this->client('fail', json_encode([7, 'no']))['code']);
    }

    public function testAnUncaughtExceptionIsUnknownInternalErrorAndLogged(): void
    {
        $secret = 'token-' . bin2hex(random_bytes(4));
        $seen = $this->client('crash', $secret);

        $this->assertSame(['code' => 'UNKNOWN', 'details' => 'Internal error'], $seen, 'nothing of the exception leaks');
        $log = $this->waitForLog("probe crash with a secret: $secret");
        $this->assertStringContainsString('gRPC /rapier.test.Probe/Crash failed: RuntimeException', $log);
        $this->assertStringContainsString('ProbeService.php', $log, 'the trace is logged');
    }

    public function testUnknownMethodAndServiceAreUnimplemented(): void
    {
        $method = $this->client('path', '/helloworld.Greeter/sayHello');
        $this->assertSame('UNIMPLEMENTED', $method['code'], 'methods match case-sensitively');
        $this->assertStringContainsString('/helloworld.Greeter/sayHello', $method['details']);

        $service = $this->client('path', '/helloworld.Nobody/SayHello');
        $this->assertSame('UNIMPLEMENTED', $service['code']);
        $this->assertSame('unknown service helloworld.Nobody (/helloworld.Nobody/SayHello)', $service['details']);
    }

    public function testADeadlineCancelsTheHandlerAndTheWorkerServesOn(): void
    {
        $seen = $this->client('deadline', '0.5');

        $this->assertSame('DEADLINE_EXCEEDED', $seen['code'], json_encode($seen));
        $this->assertLessThan(5.0, $seen['elapsed']);
        $this->assertCount(1, $seen['new_events'], json_encode($seen));
        $this->assertMatchesRegularExpression('/^sleep 10 canceled after (\d+\.\d+) s$/', $seen['new_events'][0]);
        $canceledAfter = (float) explode(' ', $seen['new_events'][0])[4];
        // At the deadline, not at the end of the 10 s sleep (with room for a slow build, ASan's).
        $this->assertGreaterThanOrEqual(0.45, $canceledAfter);
        $this->assertLessThan(5.0, $canceledAfter, 'the server canceled the 10 s sleep at the deadline');
        $this->assertSame($seen['coroutines_before'], $seen['coroutines_after'], 'no coroutine left behind');
        $this->assertTrue($seen['same_worker']);
        $this->assertSame('Hello, again!', $seen['then']['message'] ?? null);
    }

    public function testTheServerAnswersDeadlineExceededItself(): void
    {
        // curl has no deadline of its own: the answer is the server's.
        $started = microtime(true);
        $response = $this->curl('/rapier.test.Probe/Sleep', self::frame(self::helloRequest('10')), ['grpc-timeout: 300m']);

        $this->assertLessThan(5.0, microtime(true) - $started);
        $this->assertSame(200, $response['status'], $response['raw']);
        $this->assertSame('4', $response['fields']['grpc-status'] ?? null, $response['raw']);
        $this->assertSame('deadline exceeded', $response['fields']['grpc-message'] ?? null);
        $this->assertSame('', $response['body']);
    }

    public function testTheLongestTimeoutIsAccepted(): void
    {
        // 99999999 hours: beyond what a timer takes, and no deadline in practice.
        $response = $this->curl('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('far')), ['grpc-timeout: 99999999H']);

        $this->assertSame(200, $response['status'], $response['raw']);
        $this->assertSame(self::frame("\x0a\x0bHello, far!"), $response['body'], $response['raw'] . $this->log());
    }

    public function testAMalformedTimeoutIsInternal(): void
    {
        $response = $this->curl('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('x')), ['grpc-timeout: 1.5S']);

        $this->assertSame('13', $response['fields']['grpc-status'] ?? null, $response['raw']);
        $this->assertSame('malformed grpc-timeout: 1.5S', $response['fields']['grpc-message'] ?? null);
    }

    public function testMetadataInAndOut(): void
    {
        $seen = $this->client('metadata');

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $in = $seen['message']['metadata'];
        $this->assertSame('plain value', $in['x-text'] ?? null);
        $this->assertSame(base64_encode("\x00\x01\xfe\xff binary"), $in['x-data-bin'] ?? null, '-bin values are decoded');
        $this->assertSame('Bearer token-123', $in['authorization'] ?? null);
        foreach (array_keys($in) as $key) {
            $this->assertStringStartsNotWith('grpc-', $key);
            $this->assertStringStartsNotWith(':', $key);
            $this->assertNotContains($key, ['content-type', 'te', 'host']);
        }
        $this->assertSame('/rapier.test.Probe/Metadata', $seen['message']['method']);
        $this->assertEqualsWithDelta(20.0, $seen['message']['time_remaining'], 2.0, 'from grpc-timeout');
        $this->assertEqualsWithDelta(20.0, $seen['message']['deadline_in'], 2.0);
        $this->assertSame('from-probe', $seen['initial']['x-header'] ?? null);
        $this->assertSame(base64_encode("\x00\x01\xfe\xff header"), $seen['initial']['x-header-bin'] ?? null);
        $this->assertSame('done', $seen['trailing']['x-trailer'] ?? null);
        $this->assertSame(base64_encode("\xff\x00 trailer"), $seen['trailing']['x-trailer-bin'] ?? null);
    }

    /** @return array<string, array{string}> */
    public static function requestEncodings(): array
    {
        return ['gzip' => ['Gzip'], 'deflate' => ['Deflate']];
    }

    /** @dataProvider requestEncodings */
    public function testACompressedRequest(string $encoding): void
    {
        $seen = $this->client('compressed_request', $encoding);

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $this->assertSame(strtolower($encoding), $seen['message']['grpc_encoding']);
        $this->assertLessThan($seen['sent_bytes'] / 10, $seen['message']['body_bytes'], 'the client did compress the message');
        $this->assertSame($seen['sent_md5'], $seen['message']['name_md5']);
    }

    public function testAnUnsupportedEncodingIsUnimplemented(): void
    {
        $response = $this->curl('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('x'), compressed: true),
            ['grpc-encoding: snappy']);

        $this->assertSame('12', $response['fields']['grpc-status'] ?? null, $response['raw']);
        $this->assertSame('identity,deflate,gzip', $response['fields']['grpc-accept-encoding'] ?? null);
    }

    public function testRepliesAreCompressedAsTheClientAccepts(): void
    {
        // The example's server compresses with gzip (compression: 'gzip'), replies of 1 KiB and more.
        $cases = [
            'gzip by the server' => ['5000', [], 'gzip', true],
            'not accepted: none' => ['5000', [], null, false, 'identity'],
            'deflate asked by the method' => ['5000', ['x-compression: deflate'], 'deflate', true, 'identity, deflate'],
            'deflate not accepted' => ['5000', ['x-compression: deflate'], null, false, 'gzip'],
            'identity asked by the method' => ['5000', ['x-compression: identity'], null, false],
            'under compressMinBytes' => ['1000', [], 'gzip', false],
        ];
        foreach ($cases as $case => [$size, $metadata, $encoding, $compressed]) {
            $accept = $cases[$case][4] ?? 'gzip,deflate';
            $response = $this->curl('/rapier.test.Probe/Compressed', self::frame(self::helloRequest($size)),
                [...$metadata, "grpc-accept-encoding: $accept"]);
            $fields = $response['fields'];
            $this->assertSame('0', $fields['grpc-status'] ?? null, "$case: {$response['raw']}");
            $this->assertSame($encoding, $fields['grpc-encoding'] ?? null, "$case: the response's grpc-encoding");
            $this->assertSame($encoding ?? 'identity', $fields['x-compression'] ?? null, "$case: Context::compression()");
            $body = $response['body'];
            $this->assertSame($compressed ? "\1" : "\0", $body[0], "$case: the message's compressed flag");
            $this->assertSame(strlen($body) - 5, unpack('N', $body, 1)[1], $case);
            $message = substr($body, 5);
            if ($compressed) {
                $this->assertLessThan(500, strlen($message), "$case: compressed");
                $message = $encoding === 'gzip' ? gzdecode($message) : gzuncompress($message);
            }
            // HelloReply { message = 1 }: the tag, a two-byte length, then the text.
            $this->assertSame((int) $size + 3, strlen($message), $case);
            $this->assertStringEndsWith('compressible ', substr($message, 0, 3 + 13 * 5), $case);
        }
    }

    public function testGrpcInflatesTheCompressedReplies(): void
    {
        $seen = $this->client('compressed_replies', json_encode([[100000, null], [100000, 'deflate'], [100000, 'identity'],
            [10, 'gzip']]));

        $this->assertSame([
            '100000 ' => ['code' => 'OK', 'intact' => true, 'used' => 'gzip'],
            '100000 deflate' => ['code' => 'OK', 'intact' => true, 'used' => 'deflate'],
            '100000 identity' => ['code' => 'OK', 'intact' => true, 'used' => 'identity'],
            '10 gzip' => ['code' => 'OK', 'intact' => true, 'used' => 'gzip'],
        ], $seen);
    }

    public function testAOneMegabyteMessageRoundTrip(): void
    {
        $seen = $this->client('echo_size', (string) (1 << 20));

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $this->assertTrue($seen['echoed']);
    }

    public function testAMessageOverTheLimitIsResourceExhausted(): void
    {
        $seen = $this->client('echo_size', (string) (5 << 20));

        $this->assertSame('RESOURCE_EXHAUSTED', $seen['code'], json_encode($seen));
        $this->assertMatchesRegularExpression('/^grpc: received message larger than max \(\d+ vs\. 4194304\)$/', $seen['details']);
    }

    public function testATruncatedFrameIsInternal(): void
    {
        $frame = self::frame(self::helloRequest('truncated'));
        $response = $this->curl('/helloworld.Greeter/SayHello', substr($frame, 0, -3));

        $this->assertSame('13', $response['fields']['grpc-status'] ?? null, $response['raw']);
        $this->assertStringStartsWith('truncated message', $response['fields']['grpc-message'] ?? '');
    }

    public function testAHundredConcurrentCallsOnOneChannel(): void
    {
        $seen = $this->client('concurrent', '100');

        $this->assertSame(['OK' => 100], $seen['codes'], json_encode($seen));
        $this->assertSame(['slept 0.5'], $seen['messages']);
        // One at a time would take 50 s: they ran side by side in the one worker.
        $this->assertLessThan(10.0, $seen['elapsed']);
    }

    public function testHealthCheck(): void
    {
        $seen = $this->client('health', json_encode(['', 'helloworld.Greeter', 'rapier.test.Probe', 'helloworld.Nobody']));

        $this->assertSame(['' => 'SERVING', 'helloworld.Greeter' => 'SERVING', 'rapier.test.Probe' => 'SERVING',
            'helloworld.Nobody' => 'NOT_FOUND'], $seen);
    }

    public function testHealthWatchSendsEachChangeOfStatus(): void
    {
        $seen = $this->client('health_watch', json_encode([
            'watch' => ['rapier.test.Clock', 'rapier.test.Later'],
            'changes' => [
                ['rapier.test.Clock=SERVING', []],   // no change: nothing sent (the next reply below is the next change)
                ['rapier.test.Clock=NOT_SERVING', ['rapier.test.Clock']],
                ['rapier.test.Later=NOT_SERVING', ['rapier.test.Later']],
                ['rapier.test.Clock=SERVING', ['rapier.test.Clock']],
            ],
            'check' => ['rapier.test.Later', 'rapier.test.Clock'],
        ]));

        $this->assertSame([
            'rapier.test.Clock' => ['SERVING', 'NOT_SERVING', 'SERVING'],
            'rapier.test.Later' => ['SERVICE_UNKNOWN', 'NOT_SERVING'],
        ], $seen['seen'], 'a name neither served nor set is SERVICE_UNKNOWN to Watch until set');
        $this->assertSame(['rapier.test.Later' => 'NOT_SERVING', 'rapier.test.Clock' => 'SERVING'], $seen['checked'],
            'Check answers what was set');
        $this->assertSame(0, $seen['coroutines_left'], 'the canceled watches ended in the worker');
    }

    public function testAGrpcWebWatchEndsWhenItsClientLeaves(): void
    {
        $before = $this->client('stats')['coroutines'];
        // HealthCheckRequest { service = "rapier.test.Clock" }: one reply (SERVING), then the watch waits; curl
        // gives up after a second and closes the connection, over HTTP/1.1.
        file_put_contents(self::$dir . '/watch-request', self::frame("\x0a\x11rapier.test.Clock"));
        $result = PhpProcess::runCommand(['curl', '-s', '--noproxy', '*', '--http1.1', '--max-time', '1', '-o', '/dev/null',
            '-H', 'content-type: application/grpc-web+proto', '--data-binary', '@' . self::$dir . '/watch-request',
            'http://127.0.0.1:' . self::$port . '/grpc.health.v1.Health/Watch']);
        $this->assertSame(28, $result->exitCode, 'curl timed out waiting for more: ' . $result->describe());

        $after = $this->client('stats')['coroutines'];
        for ($i = 0; $i < 40 && $after > $before; $i++) {
            usleep(50000);
            $after = $this->client('stats')['coroutines'];
        }
        $this->assertSame($before, $after, 'the watch ended in the worker once its client left');
    }

    public function testAClientCancelingAUnaryCallCancelsTheMethodsWait(): void
    {
        $seen = $this->client('cancel_unary');

        $this->assertSame('CANCELLED', $seen['code']);
        $this->assertCount(1, $seen['new_events'], json_encode($seen));
        $this->assertMatchesRegularExpression('/^await 20: cancelled after 1\.\d s$/', $seen['new_events'][0],
            'the RST_STREAM canceled the method\'s 20 s sleep');
        $this->assertSame($seen['coroutines_before'], $seen['coroutines_after'], 'no coroutine left behind');
    }

    public function testAUnaryGrpcWebCallIsCanceledWhenItsClientLeavesBeforeItsReply(): void
    {
        // curl gives up after a second and closes the connection, over HTTP/1.1, while the method waits to answer.
        file_put_contents(self::$dir . '/await-request', self::frame(self::helloRequest('21')));
        $result = PhpProcess::runCommand(['curl', '-s', '--noproxy', '*', '--http1.1', '--max-time', '1', '-o', '/dev/null',
            '-H', 'content-type: application/grpc-web+proto', '--data-binary', '@' . self::$dir . '/await-request',
            'http://127.0.0.1:' . self::$port . '/rapier.test.Probe/AwaitCancel']);
        $this->assertSame(28, $result->exitCode, 'curl timed out waiting for the reply: ' . $result->describe());

        $ended = [];
        for ($i = 0; $i < 60 && $ended === []; $i++) {
            usleep(50000);
            $ended = preg_grep('/^await 21: /', $this->client('stats')['events']);
        }
        $this->assertCount(1, $ended, 'the call ended in the worker');
        $this->assertMatchesRegularExpression('/^await 21: cancelled after 1\.\d s$/', (string) reset($ended),
            'the method\'s sleep was canceled once the client left, and isCancelled() says so; not at the 20 s end');
    }

    public function testAStoppingServerEndsItsHealthWatchesAtOnce(): void
    {
        $root = dirname(__DIR__, 2);
        $port = Cli::freePort();
        $server = Cli::serve(["$root/tests/apps/grpc/app.php", '--port', (string) $port, '--workers', '1',
            '--pid-file', self::$dir . '/watch.pid', '--log-file', self::$dir . '/watch.log']);
        $client = null;
        try {
            $server->waitForWorkers(self::$dir . '/watch.pid', 1);
            $client = proc_open([GrpcTools::PYTHON, dirname(__DIR__) . '/Support/grpc_client.py', 'watch_until_end',
                "127.0.0.1:$port", self::$dir . '/pb2', ''], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'],
                2 => ['file', self::$dir . '/watch-client.err', 'w']], $pipes);
            $first = fgets($pipes[1]);
            $this->assertSame("first SERVING\n", $first, (string) @file_get_contents(self::$dir . '/watch-client.err'));
            $started = microtime(true);
            $this->assertSame(0, $server->stop(), $server->output());
            $stopped = microtime(true) - $started;
            $seen = json_decode((string) stream_get_contents($pipes[1]), true);
        } finally {
            $server->stop();
            if (is_resource($client)) {
                proc_close($client);
            }
        }

        $this->assertSame(['rest' => ['NOT_SERVING'], 'code' => 'UNAVAILABLE', 'details' => 'the server is stopping'], $seen);
        // shutdown_timeout (30 s) is what a stream the worker cannot end holds the stop for.
        $this->assertLessThan(15.0, $stopped, 'the stop did not wait for the watch to time out');
    }

    public function testReflectionListsTheServicesAndDescribesThemWithWhatTheyImport(): void
    {
        $this->needsReflectionProto();
        $clock = ['file_containing_symbol' => 'rapier.test.Clock'];
        $seen = $this->client('reflect', json_encode(['host' => 'localhost:1', 'requests' => [
            ['list_services' => ''],
            ['file_containing_symbol' => 'helloworld.Greeter'],
            $clock,
            // On the same stream, a file already sent is not sent again with the next file that imports it...
            ['file_containing_symbol' => 'rapier.test.NowReply.Source'],
            // ...but a file asked for by name always is.
            ['file_by_filename' => 'google/protobuf/timestamp.proto'],
        ]]));

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        [$list, $greeter, $clockFile, $again, $timestamp] = $seen['responses'];
        $this->assertSame(['helloworld.Greeter', 'rapier.test.Probe', 'rapier.test.Clock', 'grpc.health.v1.Health'],
            $list['services']);
        $this->assertSame(['list_services', ''], $list['echo'], 'the response carries the request it answers');
        $this->assertSame('localhost:1', $list['host']);

        $this->assertSame('file_descriptor_response', $greeter['kind']);
        $this->assertCount(1, $greeter['files']);
        $this->assertSame('helloworld.proto', $greeter['files'][0]['name']);
        $this->assertSame(['Greeter' => [
            ['SayHello', '.helloworld.HelloRequest', '.helloworld.HelloReply', false, false],
            ['SayHelloStream', '.helloworld.HelloStreamRequest', '.helloworld.HelloReply', false, true],
            ['SayHelloToAll', '.helloworld.HelloRequest', '.helloworld.HelloReply', true, false],
            ['SayHelloChat', '.helloworld.HelloRequest', '.helloworld.HelloReply', true, true],
        ]], $greeter['files'][0]['services']);

        // clock.proto's metadata class is outside GPBMetadata\ (php_metadata_namespace), and the well-known type it
        // imports comes from php-google-protobuf's own generated code.
        $this->assertSame(['clock.proto', 'google/protobuf/timestamp.proto'], array_column($clockFile['files'], 'name'));
        $this->assertSame(['google/protobuf/timestamp.proto'], $clockFile['files'][0]['dependency']);
        $this->assertSame(['NowRequest', 'NowReply'], $clockFile['files'][0]['messages']);
        $this->assertSame(['Timestamp'], $clockFile['files'][1]['messages']);
        $this->assertSame(['clock.proto'], array_column($again['files'], 'name'));
        $this->assertSame(['google/protobuf/timestamp.proto'], array_column($timestamp['files'], 'name'));
    }

    public function testReflectionFindsEverySymbolOfAFileAndAnswersNotFoundWithoutEndingTheStream(): void
    {
        $this->needsReflectionProto();
        $symbols = ['rapier.test.Clock.Now', 'rapier.test.NowRequest.caller', 'rapier.test.NowReply.Precision',
            'rapier.test.NowReply.MICROSECOND', 'rapier.test.NowReply.note', '.rapier.test.NowRequest'];
        $missing = ['rapier.test.Probe', 'rapier.test.NowReply.Precision.MICROSECOND', 'rapier.test.Nothing'];
        $requests = array_map(static fn (string $symbol): array => ['file_containing_symbol' => $symbol],
            [...$symbols, ...$missing]);
        $requests[] = ['file_by_filename' => 'nothing.proto'];
        $requests[] = ['all_extension_numbers_of_type' => 'rapier.test.NowRequest'];
        $requests[] = ['all_extension_numbers_of_type' => 'rapier.test.Nothing'];
        $requests[] = ['file_containing_extension' => ['containing_type' => 'rapier.test.NowRequest', 'extension_number' => 100]];
        $requests[] = ['file_containing_symbol' => 'helloworld.HelloReply.message'];
        $seen = $this->client('reflect', json_encode(['version' => 'v1alpha', 'requests' => $requests]));

        $this->assertSame('OK', $seen['code'], json_encode($seen));
        $responses = $seen['responses'];
        $this->assertCount(count($requests), $responses, 'one response to each request, errors included');
        foreach ($symbols as $i => $symbol) {
            // The file it imports comes along once on a stream.
            $this->assertSame($i === 0 ? ['clock.proto', 'google/protobuf/timestamp.proto'] : ['clock.proto'],
                array_column($responses[$i]['files'] ?? [], 'name'), $symbol);
            $this->assertSame(['file_containing_symbol', $symbol], $responses[$i]['echo']);
        }
        foreach (array_slice($responses, count($symbols), 4) as $i => $response) {
            $this->assertSame('error_response', $response['kind'], json_encode($response));
            $this->assertSame(5, $response['error'][0], 'NOT_FOUND');
        }
        // The Probe reuses helloworld's messages: no .proto file declares it, and reflection says so.
        $this->assertStringContainsString('symbol rapier.test.Probe is not known', $responses[count($symbols)]['error'][1]);
        $this->assertSame('file nothing.proto is not known', $responses[count($symbols) + 3]['error'][1]);
        $extensions = array_slice($responses, count($symbols) + 4, 3);
        $this->assertSame(['rapier.test.NowRequest', []], $extensions[0]['extensions'], 'a message with no extensions');
        $this->assertSame(5, $extensions[1]['error'][0] ?? null, 'all_extension_numbers_of_type of no such message');
        $this->assertSame(5, $extensions[2]['error'][0] ?? null, 'file_containing_extension of no such extension');
        $this->assertSame(['helloworld.proto'], array_column(end($responses)['files'] ?? [], 'name'),
            'the stream answers after its errors');
    }

    public function testReflectionLetsAClientThatKnowsNothingCallTheServices(): void
    {
        $this->needsReflectionProto();
        // As grpcurl does: the message classes come from the descriptors reflection sends, nothing else.
        $seen = $this->client('reflect_call', json_encode(['compare_health' => self::$dir . '/pb2/health.binpb', 'calls' => [
            '/helloworld.Greeter/SayHello' => ['name' => 'reflection'],
            '/rapier.test.Clock/Now' => ['caller' => 'python'],
            '/grpc.health.v1.Health/Check' => ['service' => 'rapier.test.Clock'],
        ]]));

        $this->assertSame(['helloworld.Greeter', 'rapier.test.Probe', 'rapier.test.Clock', 'grpc.health.v1.Health'],
            $seen['services']);
        $this->assertSame(['rapier.test.Probe'], array_keys($seen['undescribed']));
        $this->assertSame(['clock.proto', 'google/protobuf/timestamp.proto', 'grpc/health/v1/health.proto',
            'helloworld.proto'], $seen['files']);
        $replies = $seen['replies'];
        $this->assertSame(['message' => 'Hello, reflection!'], $replies['/helloworld.Greeter/SayHello']);
        $now = $replies['/rapier.test.Clock/Now'];
        $this->assertSame('MICROSECOND', $now['precision'] ?? null, json_encode($now));
        $this->assertSame(['name' => 'python'], $now['source']);
        $this->assertEqualsWithDelta($seen['now'], (float) (new \DateTimeImmutable($now['time']))->format('U.u'), 60.0);
        $this->assertSame(['status' => 'SERVING'], $replies['/grpc.health.v1.Health/Check']);

        // The health service's descriptor is written by hand: it says what gRPC's own health.proto says.
        [$ours, $grpcs] = $seen['health'];
        $this->assertSame($grpcs['package'], $ours['package']);
        $this->assertSame($grpcs['syntax'], $ours['syntax']);
        $this->assertSame($grpcs['messages'], $ours['messages']);
        $this->assertSame($grpcs['methods'], $ours['methods']);
        $this->assertSame(['Check', 'Watch'], array_keys($ours['methods']));
    }

    public function testAReflectionRequestOfNothingOrNotAMessageEndsTheStream(): void
    {
        $path = '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo';
        $nothing = $this->curl($path, self::frame("\x0a\x04host"));
        $this->assertSame('3', $nothing['fields']['grpc-status'] ?? null, $nothing['raw']);
        $this->assertStringContainsString('asks for nothing', rawurldecode($nothing['fields']['grpc-message'] ?? ''));

        $garbage = $this->curl($path, self::frame("\x3a\x09short"));
        $this->assertSame('13', $garbage['fields']['grpc-status'] ?? null, $garbage['raw']);
        $this->assertStringContainsString('cannot decode', rawurldecode($garbage['fields']['grpc-message'] ?? ''));

        $other = $this->curl('/grpc.reflection.v1.ServerReflection/Other', self::frame(''));
        $this->assertSame('12', $other['fields']['grpc-status'] ?? null, 'UNIMPLEMENTED');
    }

    public function testNonPostIs405AndAnotherContentTypeIs415(): void
    {
        $get = $this->curl('/helloworld.Greeter/SayHello', null);
        $this->assertSame(405, $get['status'], $get['raw']);
        $this->assertSame('POST', $get['fields']['allow'] ?? null);
        $this->assertArrayNotHasKey('grpc-status', $get['fields']);

        $json = $this->curl('/helloworld.Greeter/SayHello', '{}', ['content-type: application/json']);
        $this->assertSame(415, $json['status'], $json['raw']);

        $text = $this->curl('/helloworld.Greeter/SayHello', 'x', ['content-type: text/plain']);
        $this->assertSame(415, $text['status'], $text['raw']);
        $this->assertStringContainsString('application/grpc-web', $text['body'], 'the answer names what is served');
    }

    public function testTheResponseContentTypeEchoesProtoSubtype(): void
    {
        $response = $this->curl('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('proto')),
            ['content-type: application/grpc+proto']);

        $this->assertSame('application/grpc+proto', $response['fields']['content-type'] ?? null, $response['raw']);
        // Not its trailers: this reply has a content-length, and curl 7.88 stops reading there (gRPC clients do not).
        $this->assertSame(self::frame("\x0a\x0dHello, proto!"), $response['body'], 'one frame with the HelloReply');
    }

    public function testARequestHandlerOfAnHttpServerOfOnesOwn(): void
    {
        // Without `rapier serve`: the Server is the 'request' callable, HTTP/2 turned on by hand.
        $this->withOwnServer(['http2' => true], function (int $port, ServedApp $server): void {
            $seen = $this->client('unary', 'own server', $port);
            $this->assertSame('Hello, own server!', $seen['message'] ?? null, json_encode($seen) . $server->output());

            // request_buffering left on: the method starts once the whole body is in, so a bidi call works
            // one way at a time only, and a client waiting for a reply before it sends more waits in vain.
            $names = ['ann', 'bob'];
            $halfDuplex = $this->client('chat', json_encode(['names' => $names, 'interleaved' => false]), $port);
            $this->assertSame(['code' => 'OK', 'replies' => ['Hello, ann!', 'Hello, bob!']], $halfDuplex);
            $interleaved = $this->client('chat', json_encode(['names' => $names, 'interleaved' => true, 'timeout' => 1.5]),
                $port);
            $this->assertSame('DEADLINE_EXCEEDED', $interleaved['code'], json_encode($interleaved));
            $this->assertSame([], $interleaved['replies']);
        });
    }

    public function testAnHttpServerOfOnesOwnWithoutRequestBufferingServesBidiInterleaved(): void
    {
        $options = ['http2' => true, 'request_buffering' => false, 'body_timeout' => 1, 'max_body_size' => 1 << 20];
        $this->withOwnServer($options, function (int $port): void {
            $seen = $this->client('chat', json_encode(['names' => ['ann', 'bob', 'cy'], 'interleaved' => true, 'timeout' => 10]),
                $port);
            $this->assertSame(['code' => 'OK', 'replies' => ['Hello, ann!', 'Hello, bob!', 'Hello, cy!']], $seen);

            // A client quiet for longer than body_timeout while the method waits for its next message: a client
            // stream may pause as long as it likes, unless the method bounds it itself.
            $quiet = ['names' => ['ann', 'bob'], 'interleaved' => true, 'timeout' => 10, 'pause' => 2.5];
            $seen = $this->client('chat', json_encode($quiet), $port);
            $this->assertSame(['code' => 'OK', 'replies' => ['Hello, ann!', 'Hello, bob!']], $seen);
            $seen = $this->client('chat', json_encode(['path' => '/rapier.test.Probe/ImpatientChat'] + $quiet), $port);
            $this->assertSame('CANCELLED', $seen['code'], json_encode($seen));
            $this->assertStringContainsString('no byte of the request body came in time', $seen['details']);
            $this->assertSame(['ann'], $seen['replies']);

            // Nor does max_body_size (1 MiB here) bound the stream: 3 messages of 512 KiB.
            $seen = $this->client('client_stream_size', json_encode([3, 512 << 10]), $port);
            $this->assertSame('OK', $seen['code'], json_encode($seen));
        });
    }

    public function testGrpcWebUnaryOverHttp11(): void
    {
        $seen = $this->web('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('web')));

        $this->assertSame(200, $seen['status'], $seen['raw']);
        $this->assertSame('HTTP/1.1', $seen['protocol']);
        $this->assertSame('application/grpc-web+proto', $seen['fields']['content-type'] ?? null);
        $this->assertSame(["\x0a\x0bHello, web!"], $seen['messages']);
        $this->assertSame(['grpc-status' => '0', 'x-greeted' => 'yes'], $seen['trailers'],
            'the status and trailer metadata in the last frame of the body');
        $this->assertArrayNotHasKey('grpc-status', $seen['fields'], 'not in HTTP fields: browsers cannot read trailers');
    }

    public function testGrpcWebTextIsBase64BothWays(): void
    {
        // The request's base64 in two pieces, each padded, as a client flushing twice sends it.
        $frame = self::frame(self::helloRequest('text'));
        $body = base64_encode(substr($frame, 0, 4)) . base64_encode(substr($frame, 4));
        $this->assertStringContainsString('=', substr($body, 0, 8), 'padding inside the body');

        $seen = $this->web('/helloworld.Greeter/SayHello', $body, text: true);

        $this->assertSame('application/grpc-web-text+proto', $seen['fields']['content-type'] ?? null, $seen['raw']);
        $this->assertSame(["\x0a\x0cHello, text!"], $seen['messages']);
        $this->assertSame(['grpc-status' => '0', 'x-greeted' => 'yes'], $seen['trailers']);
        $notBase64 = $this->web('/helloworld.Greeter/SayHello', '%%%', text: true);
        $this->assertSame('13', $notBase64['trailers']['grpc-status'] ?? null, $notBase64['raw']);
    }

    public function testGrpcWebServerStreamingAndErrors(): void
    {
        // helloworld.HelloStreamRequest { name = 1, count = 2 }
        $seen = $this->web('/helloworld.Greeter/SayHelloStream', self::frame("\x0a\x02st\x10\x03"));
        $this->assertCount(3, $seen['messages'], $seen['raw']);
        $this->assertSame(['grpc-status' => '0'], $seen['trailers']);

        $empty = $this->web('/helloworld.Greeter/SayHello', base64_encode(self::frame(self::helloRequest(''))), text: true);
        $this->assertSame([], $empty['messages']);
        $this->assertSame(['grpc-status' => '3', 'grpc-message' => 'name is empty: say who to greet'], $empty['trailers']);
        $unknown = $this->web('/helloworld.Greeter/Nothing', self::frame(''));
        $this->assertSame('12', $unknown['trailers']['grpc-status'] ?? null, $unknown['raw']);
        $json = $this->web('/helloworld.Greeter/SayHello', '{}', headers: ['content-type: application/grpc-web+json']);
        $this->assertSame('12', $json['trailers']['grpc-status'] ?? null, $json['raw']);
        $this->assertStringContainsString('protobuf', $json['trailers']['grpc-message'] ?? '');
    }

    public function testGrpcWebAcrossOriginsWithWebOrigins(): void
    {
        $server = '(new Rapier\Grpc\Server(webOrigins: ["https://app.example", "*"]))'
            . '->addService("helloworld.Greeter", new Examples\Grpc\Greeter())'
            . '->addService("rapier.test.Probe", new Rapier\Tests\Apps\Grpc\ProbeService())';
        $this->withOwnServer(['http2' => true], function (int $port): void {
            $preflight = ['origin: https://app.example', 'access-control-request-method: POST',
                'access-control-request-headers: content-type,x-grpc-web,x-user-agent'];
            $allowed = $this->web('/helloworld.Greeter/SayHello', null, port: $port, method: 'OPTIONS', headers: $preflight);
            $this->assertSame(204, $allowed['status'], $allowed['raw']);
            $this->assertSame('https://app.example', $allowed['fields']['access-control-allow-origin'] ?? null);
            $this->assertSame('content-type,x-grpc-web,x-user-agent', $allowed['fields']['access-control-allow-headers'] ?? null);
            $this->assertStringContainsString('POST', $allowed['fields']['access-control-allow-methods'] ?? '');

            $this->assertSame('true', $allowed['fields']['access-control-allow-credentials'] ?? null, 'a listed origin');

            // Any other page, by "*": allowed, without the user's credentials.
            $other = ['origin: https://other.example', ...array_slice($preflight, 1)];
            $any = $this->web('/helloworld.Greeter/SayHello', null, port: $port, method: 'OPTIONS', headers: $other);
            $this->assertSame(204, $any['status'], $any['raw']);
            $this->assertSame('*', $any['fields']['access-control-allow-origin'] ?? null);
            $this->assertArrayNotHasKey('access-control-allow-credentials', $any['fields']);

            $call = $this->web('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('cors')), port: $port,
                headers: ['origin: https://app.example']);
            $this->assertSame(["\x0a\x0cHello, cors!"], $call['messages'], $call['raw']);
            $this->assertSame('https://app.example', $call['fields']['access-control-allow-origin'] ?? null);
            $this->assertSame('grpc-status, grpc-message, x-greeter', $call['fields']['access-control-expose-headers'] ?? null,
                'the example sets x-greeter');

            // The page's code reads the header metadata the method set (grpc-web's 'metadata' event) once exposed.
            $metadata = $this->web('/rapier.test.Probe/Metadata', self::frame(self::helloRequest('m')), port: $port,
                headers: ['origin: https://app.example']);
            $this->assertSame('from-probe', $metadata['fields']['x-header'] ?? null, $metadata['raw']);
            $this->assertSame('grpc-status, grpc-message, x-header, x-header-bin',
                $metadata['fields']['access-control-expose-headers'] ?? null);
            $unknown = $this->web('/rapier.test.Probe/Nothing', self::frame(''), port: $port, headers: ['origin: https://app.example']);
            $this->assertSame('12', $unknown['trailers']['grpc-status'] ?? null, $unknown['raw']);
            $this->assertSame('grpc-status, grpc-message', $unknown['fields']['access-control-expose-headers'] ?? null);
            $sameSite = $this->web('/rapier.test.Probe/Metadata', self::frame(self::helloRequest('m')), port: $port);
            $this->assertArrayNotHasKey('access-control-expose-headers', $sameSite['fields'], 'no Origin, no CORS');
        }, $server);
        $server = '(new Rapier\Grpc\Server(webOrigins: ["https://app.example"]))'
            . '->addService("helloworld.Greeter", new Examples\Grpc\Greeter())';
        $this->withOwnServer(['http2' => true], function (int $port): void {
            $preflight = ['origin: https://evil.example', 'access-control-request-method: POST'];
            $refused = $this->web('/helloworld.Greeter/SayHello', null, port: $port, method: 'OPTIONS', headers: $preflight);
            $this->assertSame(403, $refused['status'], $refused['raw']);
            $this->assertArrayNotHasKey('access-control-allow-origin', $refused['fields']);
            $foreign = $this->web('/helloworld.Greeter/SayHello', self::frame(self::helloRequest('x')), port: $port,
                headers: ['origin: https://evil.example']);
            $this->assertArrayNotHasKey('access-control-allow-origin', $foreign['fields'], 'the browser keeps the answer from the page');

            if (is_dir(self::$dir . '/pb2/v1')) {
                $reflect = $this->client('reflect', json_encode(['requests' => [['list_services' => '']]]), $port);
                $this->assertSame('UNIMPLEMENTED', $reflect['code'], 'reflection is off unless asked for');
            }
        }, $server);
    }

    public function testGeneratedExampleClassesMatchTheProto(): void
    {
        $result = PhpProcess::runCommand([dirname(__DIR__, 2) . '/scripts/gen-grpc-example.sh', '--check']);

        $this->assertSame(0, $result->exitCode, $result->describe());
    }

    private function needsReflectionProto(): void
    {
        if (!is_dir(self::$dir . '/pb2/v1') || !is_dir(self::$dir . '/pb2/v1alpha')) {
            $this->markTestSkipped('gRPC\'s reflection.proto is not installed (grpc-proto; ' . GrpcTools::DEPS . ')');
        }
    }

    /**
     * tests/apps/grpc/app.php (the example and the Probe) as the request handler of a Rapier\Http\Server
     * with $options (and one worker), in a process of its own, for $test($port, $server).
     *
     * @param array<string, mixed> $options
     * @param callable(int, ServedApp): void $test
     * @param string|null $grpcServer PHP for the Rapier\Grpc\Server to serve instead (the example's classes loaded)
     */
    private function withOwnServer(array $options, callable $test, ?string $grpcServer = null): void
    {
        $root = dirname(__DIR__, 2);
        $port = Cli::freePort();
        file_put_contents(self::$dir . '/own-server.php', sprintf(<<<'PHP'
            <?php
            require %s;
            $grpc = require %s;
            $grpc = %s;
            $http = new Rapier\Http\Server('127.0.0.1', %d, %s);
            $http->on('request', $grpc);
            $http->start();
            PHP, var_export("$root/src/autoload.php", true), var_export("$root/tests/apps/grpc/app.php", true), $grpcServer ?? '$grpc', $port,
            var_export(['workers' => 1] + $options, true)));
        $out = self::$dir . '/own-server.out';
        $proc = proc_open([PHP_BINARY, '-d', 'extension=' . Cli::extension(), self::$dir . '/own-server.php'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $out, 'a']], $pipes);
        $server = new ServedApp($proc, $out, $out);
        try {
            $server->waitForPort($port);
            $test($port, $server);
        } finally {
            $this->assertSame(0, $server->stop(), $server->output());
        }
    }

    /** @return array<string, mixed> what the client scenario saw */
    private function client(string $scenario, ?string $arg = null, ?int $port = null): array
    {
        $command = [GrpcTools::PYTHON, dirname(__DIR__) . '/Support/grpc_client.py', $scenario, '127.0.0.1:' . ($port ?? self::$port),
            self::$dir . '/pb2', ...($arg === null ? [] : [$arg])];
        $proc = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if ($proc === false) {
            throw new RuntimeException('Cannot start the Python client');
        }
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        $code = proc_close($proc);
        $this->assertSame(0, $code, "the client failed:\n$stderr$stdout\n" . self::$rapier?->output() . $this->log());

        return json_decode($stdout, true, 512, JSON_THROW_ON_ERROR);
    }

    /**
     * A request with curl over h2c (prior knowledge), a POST when $body is
     * not null, with its header and trailer fields together (curl writes
     * both to its header dump).
     *
     * @param list<string> $headers
     * @return array{status: int, fields: array<string, string>, body: string, raw: string}
     */
    private function curl(string $path, ?string $body, array $headers = []): array
    {
        $fields = self::$dir . '/curl-fields';
        $out = self::$dir . '/curl-body';
        $command = ['curl', '-s', '--noproxy', '*', '--http2-prior-knowledge', '--max-time', '20', '-D', $fields, '-o', $out];
        if ($body !== null) {
            file_put_contents(self::$dir . '/curl-request', $body);
            $command = [...$command, '--data-binary', '@' . self::$dir . '/curl-request'];
            $hasType = array_filter($headers, static fn (string $h): bool => stripos($h, 'content-type:') === 0) !== [];
            $headers = [...($hasType ? [] : ['content-type: application/grpc']), 'te: trailers', ...$headers];
        }
        foreach ($headers as $header) {
            $command = [...$command, '-H', $header];
        }
        $result = PhpProcess::runCommand([...$command, 'http://127.0.0.1:' . self::$port . $path]);
        $raw = (string) @file_get_contents($fields);
        $this->assertSame(0, $result->exitCode, $result->describe() . "\n$raw");
        $parsed = [];
        $status = 0;
        foreach (preg_split('/\r?\n/', $raw) as $line) {
            if (preg_match('~^HTTP/\S+ (\d{3})~', $line, $m) === 1) {
                $status = (int) $m[1];
            } elseif (str_contains($line, ':')) {
                [$name, $value] = explode(':', $line, 2);
                $parsed[strtolower(trim($name))] = trim($value);
            }
        }

        return ['status' => $status, 'fields' => $parsed, 'body' => (string) @file_get_contents($out), 'raw' => $raw];
    }

    /**
     * A gRPC-Web call with curl over HTTP/1.1: the HTTP status and fields,
     * and the body's frames, data apart from the trailer frame's fields.
     *
     * @param list<string> $headers
     * @return array{status: int, protocol: string, fields: array<string, string>, messages: list<string>, trailers: array<string, string>, raw: string}
     */
    private function web(string $path, ?string $body, bool $text = false, array $headers = [], ?int $port = null,
        string $method = 'POST'): array
    {
        $fields = self::$dir . '/web-fields';
        $out = self::$dir . '/web-body';
        $command = ['curl', '-s', '--noproxy', '*', '--http1.1', '--max-time', '20', '-X', $method, '-D', $fields, '-o', $out];
        if ($body !== null) {
            file_put_contents(self::$dir . '/web-request', $body);
            $command = [...$command, '--data-binary', '@' . self::$dir . '/web-request'];
            $type = $text ? 'application/grpc-web-text+proto' : 'application/grpc-web+proto';
            $hasType = array_filter($headers, static fn (string $h): bool => stripos($h, 'content-type:') === 0) !== [];
            $headers = [...($hasType ? [] : ["content-type: $type"]), 'x-grpc-web: 1', ...$headers];
        }
        foreach ($headers as $header) {
            $command = [...$command, '-H', $header];
        }
        $result = PhpProcess::runCommand([...$command, 'http://127.0.0.1:' . ($port ?? self::$port) . $path]);
        $head = (string) @file_get_contents($fields);
        $this->assertSame(0, $result->exitCode, $result->describe() . "\n$head");
        $seen = ['status' => 0, 'protocol' => '', 'fields' => [], 'messages' => [], 'trailers' => []];
        foreach (preg_split('/\r?\n/', $head) as $line) {
            if (preg_match('~^(HTTP/\S+) (\d{3})~', $line, $m) === 1) {
                [$seen['protocol'], $seen['status']] = [$m[1], (int) $m[2]];
            } elseif (str_contains($line, ':')) {
                [$name, $value] = explode(':', $line, 2);
                $seen['fields'][strtolower(trim($name))] = trim($value);
            }
        }
        $data = (string) @file_get_contents($out);
        $seen['raw'] = $head . $data;
        if ($text) {
            // Each write base64-encoded on its own: padding may end any piece.
            $data = implode('', array_map(static fn (string $piece): string => (string) base64_decode($piece, true),
                preg_split('/(?<==)(?=[^=])/', $data) ?: []));
        }
        for ($at = 0; $at + 5 <= strlen($data); $at += 5 + $size) {
            $flag = ord($data[$at]);
            $size = unpack('N', $data, $at + 1)[1];
            $payload = substr($data, $at + 5, $size);
            if ($flag & 0x80) {
                foreach (explode("\r\n", rtrim($payload, "\r\n")) as $field) {
                    [$name, $value] = explode(':', $field, 2);
                    $seen['trailers'][$name] = $value;
                }
            } else {
                $seen['messages'][] = $payload;
            }
        }

        return $seen;
    }

    private static function frame(string $message, bool $compressed = false): string
    {
        return ($compressed ? "\1" : "\0") . pack('N', strlen($message)) . $message;
    }

    /** helloworld.HelloRequest { name = 1 }, encoded by hand: the test needs no generated classes. */
    private static function helloRequest(string $name): string
    {
        return "\x0a" . chr(strlen($name)) . $name;
    }

    private function waitForLog(string $needle): string
    {
        $deadline = microtime(true) + 10;
        while (!str_contains($this->log(), $needle) && microtime(true) < $deadline) {
            usleep(20000);
        }
        $this->assertStringContainsString($needle, $this->log());

        return $this->log();
    }

    private function log(): string
    {
        return (string) @file_get_contents(self::$dir . '/rapier.log');
    }
}
