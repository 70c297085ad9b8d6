<?php

declare(strict_types=1);

namespace Rapier\Tests\Grpc;

use PHPUnit\Framework\TestCase;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Internal\Compression;
use Rapier\Grpc\Internal\HealthService;
use Rapier\Grpc\Internal\MessageFraming;
use Rapier\Grpc\Internal\PercentEncoding;
use Rapier\Grpc\Internal\ProtoWire;
use Rapier\Grpc\Internal\StatusDetails;
use Rapier\Grpc\Internal\Timeout;
use Rapier\Grpc\Status;
use Rapier\Tests\Support\TrickleStream;
use ValueError;

/** The pieces of gRPC's wire format, without a server: framing, grpc-timeout, grpc-message, the health request. */
final class WireFormatTest extends TestCase
{
    private const MAX = 4 << 20;

    public function testFramesAreFlagLengthAndMessage(): void
    {
        $this->assertSame("\0\0\0\0\3abc", MessageFraming::encode('abc'));
        $this->assertSame("\0\0\0\0\0", MessageFraming::encode(''));
        $this->assertSame("\0\0\1\0\0", substr(MessageFraming::encode(str_repeat('x', 65536)), 0, 5));
    }

    public function testRepliesAreCompressedWhenThatMakesThemSmaller(): void
    {
        $message = str_repeat('compressible ', 100);
        foreach (['gzip' => gzdecode(...), 'deflate' => gzuncompress(...)] as $encoding => $inflate) {
            $frame = MessageFraming::encode($message, $encoding);
            $this->assertSame("\1", $frame[0], "$encoding: flagged compressed");
            $this->assertSame(strlen($frame) - 5, unpack('N', $frame, 1)[1]);
            $this->assertLessThan(strlen($message) / 10, strlen($frame));
            $this->assertSame($message, $inflate(substr($frame, 5)), $encoding);
            // Incompressible bytes (or a few bytes, which gzip's header outweighs) go as they are, flag 0.
            $this->assertSame("\0\0\0\0\3abc", MessageFraming::encode('abc', $encoding));
            $random = random_bytes(4096);
            $this->assertSame("\0" . pack('N', 4096) . $random, MessageFraming::encode($random, $encoding));
        }
        $this->assertSame("\0" . pack('N', strlen($message)) . $message, MessageFraming::encode($message, 'identity'));
    }

    public function testAcceptedEncodingsAreTheOnesBothSidesKnow(): void
    {
        $this->assertSame(['identity'], Compression::acceptedBy(null));
        $this->assertSame(['identity', 'deflate', 'gzip'], Compression::acceptedBy('identity, deflate, gzip'));
        $this->assertSame(['identity', 'gzip'], Compression::acceptedBy('GZIP,snappy , br'));
        $this->assertSame(['identity'], Compression::acceptedBy(''));
    }

    public function testReadSplitsTheBodyIntoItsMessages(): void
    {
        $messages = ['one', '', str_repeat("\xff", 70000), "\0\1"];
        $body = implode('', array_map(MessageFraming::encode(...), $messages));

        foreach (self::streams($body) as $how => $stream) {
            $this->assertSame($messages, iterator_to_array(MessageFraming::read($stream, 'identity', self::MAX), false), $how);
        }
        foreach (self::streams('') as $how => $stream) {
            $this->assertSame([], iterator_to_array(MessageFraming::read($stream, 'identity', self::MAX), false), $how);
        }
    }

    public function testEachMessageIsYieldedOnceWholeWithoutReadingAhead(): void
    {
        $gzipped = gzencode('squeezed');
        $frames = [MessageFraming::encode('first'), MessageFraming::encode(''), "\1" . pack('N', strlen($gzipped)) . $gzipped,
            MessageFraming::encode(str_repeat('x', 300))];
        $messages = MessageFraming::read(TrickleStream::open(implode('', $frames)), 'gzip', self::MAX);

        // A byte per read, prefixes split included: each message comes when its last byte has, not one byte later.
        $end = 0;
        foreach (['first', '', 'squeezed', str_repeat('x', 300)] as $i => $expected) {
            $end += strlen($frames[$i]);
            $this->assertTrue($messages->valid());
            $this->assertSame($expected, $messages->current());
            $this->assertSame($end, TrickleStream::$handedOut, "message $i: read to the end of its frame and no further");
            $messages->next();
        }
        $this->assertFalse($messages->valid());
    }

    public function testNothingIsReadBeforeTheFirstMessageIsAskedFor(): void
    {
        $messages = MessageFraming::read(TrickleStream::open(MessageFraming::encode('a')), 'identity', self::MAX);

        $this->assertSame(0, TrickleStream::$handedOut, 'a method that never iterates leaves the body unread');
        $this->assertSame('a', $messages->current());
    }

    public function testCompressedMessagesAreInflated(): void
    {
        $message = str_repeat('compressible ', 5000);
        foreach (['gzip' => gzencode($message), 'deflate' => gzcompress($message)] as $encoding => $compressed) {
            $body = "\1" . pack('N', strlen($compressed)) . $compressed . MessageFraming::encode('plain');
            foreach (self::streams($body) as $how => $stream) {
                $this->assertSame([$message, 'plain'], iterator_to_array(MessageFraming::read($stream, $encoding, self::MAX), false),
                    "$encoding: the flag is per message: an uncompressed one may follow ($how)");
            }
        }
    }

    /** @return array<string, array{string, string, Status, string}> */
    public static function badBodies(): array
    {
        $gz = gzencode('hello');

        return [
            'a prefix cut short' => ["\0\0\0", 'identity', Status::INTERNAL, 'truncated message: 3 bytes of a 5-byte prefix'],
            'a message cut short' => ["\0\0\0\0\5abc", 'identity', Status::INTERNAL, 'truncated message: 3 of 5 bytes'],
            'a second frame cut short' => [MessageFraming::encode('ok') . "\0\0", 'identity', Status::INTERNAL, 'truncated message'],
            'flag 2' => ["\2\0\0\0\0", 'identity', Status::INTERNAL, 'invalid compressed flag 2'],
            'compressed without grpc-encoding' => ["\1" . pack('N', strlen($gz)) . $gz, 'identity', Status::INTERNAL,
                'compressed message without grpc-encoding'],
            'not gzip' => ["\1\0\0\0\5hello", 'gzip', Status::INTERNAL, 'invalid gzip message'],
            'gzip cut short' => ["\1" . pack('N', 8) . substr($gz, 0, 8), 'gzip', Status::INTERNAL, 'invalid gzip message'],
            'gzip as deflate' => ["\1" . pack('N', strlen($gz)) . $gz, 'deflate', Status::INTERNAL, 'invalid deflate message'],
            'raw deflate, not zlib' => ["\1" . pack('N', strlen(gzdeflate('hello'))) . gzdeflate('hello'), 'deflate',
                Status::INTERNAL, 'invalid deflate message'],
            'over the limit' => ["\0" . pack('N', 101) . str_repeat('x', 101), 'identity', Status::RESOURCE_EXHAUSTED,
                'grpc: received message larger than max (101 vs. 100)'],
            'announced over the limit' => ["\0\xff\xff\xff\xff", 'identity', Status::RESOURCE_EXHAUSTED,
                'grpc: received message larger than max (4294967295 vs. 100)'],
            'over the limit once inflated' => ["\1" . pack('N', strlen(gzencode(str_repeat('z', 1000))))
                . gzencode(str_repeat('z', 1000)), 'gzip', Status::RESOURCE_EXHAUSTED, 'once decompressed'],
            'deflate over the limit once inflated' => ["\1" . pack('N', strlen(gzcompress(str_repeat('z', 1000))))
                . gzcompress(str_repeat('z', 1000)), 'deflate', Status::RESOURCE_EXHAUSTED, 'once decompressed'],
        ];
    }

    /** @dataProvider badBodies */
    public function testBadBodiesEndTheCall(string $body, string $encoding, Status $status, string $message): void
    {
        foreach (self::streams($body) as $how => $stream) {
            try {
                iterator_to_array(MessageFraming::read($stream, $encoding, 100), false);
                $this->fail("no exception ($how)");
            } catch (GrpcException $e) {
                $this->assertSame($status, $e->status, $how);
                $this->assertSame($status->value, $e->getCode());
                $this->assertStringContainsString($message, $e->getMessage(), $how);
            }
        }
    }

    public function testAMessageOverTheLimitIsRefusedFromItsPrefixBeforeItIsRead(): void
    {
        $messages = MessageFraming::read(TrickleStream::open("\0" . pack('N', 101) . str_repeat('x', 101)), 'identity', 100);
        try {
            $messages->current();
            $this->fail('no exception');
        } catch (GrpcException $e) {
            $this->assertSame(Status::RESOURCE_EXHAUSTED, $e->status);
        }
        $this->assertSame(MessageFraming::PREFIX_BYTES, TrickleStream::$handedOut, 'only the prefix was read');
    }

    public function testAFailedReadIsNotTheEndOfTheBody(): void
    {
        // At a message's boundary, where an end would be a clean one.
        $messages = MessageFraming::read(TrickleStream::open(MessageFraming::encode('a') . MessageFraming::encode('b'), failAt: 6),
            'identity', self::MAX);

        $this->assertSame('a', $messages->current());
        $this->expectException(GrpcException::class);
        $this->expectExceptionMessage('the request body could not be read');
        $messages->next();
    }

    public function testACompressionBombStopsAtTheLimit(): void
    {
        $zeros = str_repeat("\0", 32 << 20);
        $bombs = ['gzip' => gzencode($zeros, 9), 'deflate' => gzcompress($zeros, 9)];   // 32 MiB in about 32 KB
        unset($zeros);
        foreach ($bombs as $encoding => $bomb) {
            // Making the bombs peaked at 32 MiB and more: measure from here.
            memory_reset_peak_usage();
            $before = memory_get_peak_usage();
            try {
                Compression::inflate($bomb, $encoding, 1 << 20);
                $this->fail("no exception ($encoding)");
            } catch (GrpcException $e) {
                $this->assertSame(Status::RESOURCE_EXHAUSTED, $e->status);
            }
            $this->assertLessThan(16 << 20, memory_get_peak_usage() - $before, "$encoding: inflated a step at a time, not whole");
        }
    }

    /** @return array<string, array{string, float}> */
    public static function timeouts(): array
    {
        return [
            'hours' => ['2H', 7200.0],
            'minutes' => ['3M', 180.0],
            'seconds' => ['10S', 10.0],
            'milliseconds' => ['250m', 0.25],
            'microseconds' => ['1500u', 0.0015],
            'nanoseconds' => ['99999999n', 0.099999999],
            'eight digits' => ['12345678S', 12345678.0],
            'zero' => ['0m', 0.0],
        ];
    }

    /** @dataProvider timeouts */
    public function testTimeouts(string $value, float $seconds): void
    {
        $this->assertEqualsWithDelta($seconds, Timeout::parse($value), 1e-12);
    }

    /** @return array<string, array{string}> */
    public static function malformedTimeouts(): array
    {
        return array_map(static fn (string $v): array => [$v], [
            'nine digits' => '123456789S', 'no unit' => '10', 'no digits' => 'S', 'unknown unit' => '10s',
            'fraction' => '1.5S', 'negative' => '-1S', 'space' => ' 1S', 'empty' => '', 'trailing newline' => "1S\n",
        ]);
    }

    /** @dataProvider malformedTimeouts */
    public function testMalformedTimeoutsAreInternal(string $value): void
    {
        try {
            Timeout::parse($value);
            $this->fail('no exception');
        } catch (GrpcException $e) {
            $this->assertSame(Status::INTERNAL, $e->status);
            $this->assertStringStartsWith('malformed grpc-timeout', $e->getMessage());
        }
    }

    public function testGrpcMessagePercentEncoding(): void
    {
        $this->assertSame('plain text: ok (1/2) ~!', PercentEncoding::encode('plain text: ok (1/2) ~!'));
        $this->assertSame('100%25 sure', PercentEncoding::encode('100% sure'));
        $this->assertSame('caf%C3%A9 %E2%98%83', PercentEncoding::encode('café ☃'));
        $this->assertSame('a%0Ab%09c%7F%00', PercentEncoding::encode("a\nb\tc\x7f\0"));
        $text = "Zoë's 100% \u{1F600}\r\n\x01";
        $this->assertSame($text, PercentEncoding::decode(PercentEncoding::encode($text)));
        $this->assertSame('50% off %zz', PercentEncoding::decode('50% off %zz'), 'a stray % is kept, as readers must');
    }

    public function testHealthCheckRequestDecoding(): void
    {
        $this->assertSame('', HealthService::decodeRequest(''));
        $this->assertSame('helloworld.Greeter', HealthService::decodeRequest("\x0a\x12helloworld.Greeter"));
        // Unknown fields of every wire type are skipped: varint 2, fixed64 3, fixed32 4, bytes 5.
        $this->assertSame('svc', HealthService::decodeRequest("\x10\x96\x01\x19" . str_repeat("\0", 8) . "\x25\0\0\0\0"
            . "\x2a\x02hi\x0a\x03svc"));
        $long = str_repeat('s', 300);
        $this->assertSame($long, HealthService::decodeRequest("\x0a\xac\x02$long"), 'a two-byte length');
        foreach (["\x0a\x05abc", "\x0a", "\x0b", "\x00\x01", "\x10\x80"] as $bad) {
            try {
                HealthService::decodeRequest($bad);
                $this->fail('no exception for ' . bin2hex($bad));
            } catch (GrpcException $e) {
                $this->assertSame(Status::INTERNAL, $e->status);
            }
        }
    }

    public function testGrpcExceptionTakesAStatusOrItsNumber(): void
    {
        $this->assertSame(Status::NOT_FOUND, (new GrpcException('x', 5))->status);
        $this->assertSame(16, (new GrpcException('x', Status::UNAUTHENTICATED))->getCode());
        $this->assertSame(Status::UNKNOWN, (new GrpcException('x'))->status);
        $this->assertCount(17, Status::cases());
        $this->expectException(ValueError::class);
        new GrpcException('x', 17);
    }

    public function testGrpcExceptionRefusesOk(): void
    {
        $this->expectException(ValueError::class);
        $this->expectExceptionMessage('return the reply');
        new GrpcException('x', Status::OK);
    }

    public function testErrorDetailsAreAGoogleRpcStatusOfAnys(): void
    {
        $detail = new \Google\Protobuf\Duration(['seconds' => 7]);
        $packed = new \Google\Protobuf\Any();
        $packed->pack(new \Google\Protobuf\Timestamp(['seconds' => 9]));
        $e = new GrpcException('slow down', Status::RESOURCE_EXHAUSTED, details: [$detail, $packed]);
        $this->assertSame([$detail, $packed], $e->details);

        $status = ProtoWire::fields(StatusDetails::encode($e->status, $e->getMessage(), $e->details));
        $this->assertSame(8, ProtoWire::last($status, 1));
        $this->assertSame('slow down', ProtoWire::last($status, 2));
        $anys = ProtoWire::strings($status, 3);
        $this->assertCount(2, $anys);
        $duration = new \Google\Protobuf\Any();
        $duration->mergeFromString($anys[0]);
        $this->assertSame('type.googleapis.com/google.protobuf.Duration', $duration->getTypeUrl());
        $this->assertSame(7, (int) $duration->unpack()->getSeconds());
        $this->assertSame($packed->serializeToString(), $anys[1], 'an Any goes as it is, not packed again');
    }

    public function testErrorDetailsAreDecodedAsTheyWereEncoded(): void
    {
        $detail = new \Google\Protobuf\Duration(['seconds' => 7, 'nanos' => 5]);
        $bytes = StatusDetails::encode(Status::UNAVAILABLE, 'later', [$detail, new \Google\Protobuf\Timestamp(['seconds' => 9])]);

        $anys = StatusDetails::decode($bytes);
        $this->assertSame(['type.googleapis.com/google.protobuf.Duration', 'type.googleapis.com/google.protobuf.Timestamp'],
            array_map(static fn (\Google\Protobuf\Any $a): string => $a->getTypeUrl(), $anys));
        $this->assertSame($detail->serializeToString(), $anys[0]->getValue());
        $this->assertSame([], StatusDetails::decode(ProtoWire::varintField(1, 14)), 'a status without details');
        $this->assertSame([], StatusDetails::decode("\xff\xff"), 'bytes that are no message: none, and no exception');
    }

    /** @return array<string, array{float, string}> */
    public static function timeoutsToSend(): array
    {
        return [
            '50 ms' => [0.05, '50000000n'],
            '1.5 s' => [1.5, '1500000u'],
            'a nanosecond' => [1e-9, '1n'],
            'a day' => [86400.0, '86400000m'],
            'past the digits of m' => [1e6, '1000000S'],
            'eleven years' => [3.5e8, '5833334M'],
            'past the digits of H' => [1e15, '99999999H'],
        ];
    }

    /** @dataProvider timeoutsToSend */
    public function testTimeoutsAreSentInTheFinestUnitThatFitsRoundedUp(float $seconds, string $value): void
    {
        $this->assertSame($value, Timeout::format($seconds));
        $this->assertGreaterThanOrEqual(min($seconds, 99999999 * 3600.0), Timeout::parse($value) * (1 + 1e-9));
    }

    public function testErrorDetailsMustBeMessages(): void
    {
        $this->expectException(\TypeError::class);
        $this->expectExceptionMessage('details must be protobuf messages (generated classes), got string at [1]');
        new GrpcException('x', Status::INTERNAL, details: [new \Google\Protobuf\Duration(), 'not a message']);
    }

    /**
     * The same body as a stream two ways: whole in memory, and a byte per
     * read, as a body arriving in pieces (prefixes split included).
     *
     * @return array<string, resource>
     */
    private static function streams(string $body): array
    {
        $memory = fopen('php://memory', 'r+b');
        fwrite($memory, $body);
        rewind($memory);

        return ['whole' => $memory, 'a byte per read' => TrickleStream::open($body)];
    }
}
