<?php

declare(strict_types=1);

namespace Rapier\Tests\Apps\Grpc;

use Generator;
use Google\Protobuf\Duration;
use Google\Rpc\BadRequest;
use Google\Rpc\BadRequest\FieldViolation;
use Google\Rpc\RetryInfo;
use Helloworld\HelloReply;
use Helloworld\HelloRequest;
use LogicException;
use Rapier\CanceledException;
use Rapier\Coroutine;
use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Server;
use Rapier\Grpc\ServingStatus;
use Rapier\Grpc\Status;
use Rapier\Grpc\Stream;
use RuntimeException;

/**
 * rapier.test.Probe, served beside the example's Greeter for
 * tests/Grpc/GrpcServerTest.php: calls that fail, sleep, inspect what
 * arrived, and report what the worker saw. It reuses helloworld's
 * messages (a name in, a message out), so it needs no .proto of its own.
 * The worker's state is static: the test serves it with one worker.
 */
final class ProbeService
{
    /** @var list<string> what happened to calls, in order */
    private static array $events = [];
    private static bool $released = false;

    /** @param Server|null $server the server it is served by, for SetServing */
    public function __construct(private readonly ?Server $server = null)
    {
    }

    /** Sets a health status: the name is "service=STATUS" (SERVING, NOT_SERVING). */
    public function SetServing(HelloRequest $request): HelloReply
    {
        [$service, $status] = explode('=', $request->getName(), 2);
        $this->server?->setServingStatus($service, constant(ServingStatus::class . "::$status"));

        return new HelloReply(['message' => $this->server?->servingStatus($service)?->name ?? 'unknown']);
    }

    /** Ends with the status named by the x-code metadata and the name as message. */
    public function Fail(HelloRequest $request, Context $context): HelloReply
    {
        throw new GrpcException($request->getName(), (int) ($context->metadataValue('x-code') ?? 2));
    }

    /**
     * INVALID_ARGUMENT with rich error details: googleapis' BadRequest and
     * RetryInfo (classes generated from google/rpc/error_details.proto) and
     * a message of the application's own.
     */
    public function FailWithDetails(HelloRequest $request): HelloReply
    {
        throw new GrpcException('the request is invalid: ' . $request->getName(), Status::INVALID_ARGUMENT, details: [
            new BadRequest(['field_violations' => [
                new FieldViolation(['field' => 'name', 'description' => 'must name someone: ' . $request->getName()]),
            ]]),
            new RetryInfo(['retry_delay' => new Duration(['seconds' => 1, 'nanos' => 500000000])]),
            new HelloReply(['message' => 'a detail of the application\'s own']),
        ]);
    }

    public function Crash(HelloRequest $request): HelloReply
    {
        throw new RuntimeException('probe crash with a secret: ' . $request->getName());
    }

    /** Sleeps the name's seconds; a cancel (the deadline) is recorded before it goes on up. */
    public function Sleep(HelloRequest $request): HelloReply
    {
        $start = microtime(true);
        try {
            Coroutine::sleep((float) $request->getName());
        } catch (CanceledException $e) {
            self::$events[] = sprintf('sleep %s canceled after %.3f s', $request->getName(), microtime(true) - $start);
            throw $e;
        }
        self::$events[] = "sleep {$request->getName()} done";

        return new HelloReply(['message' => 'slept ' . $request->getName()]);
    }

    /**
     * Waits the name's seconds in one sleep, never checking, as a long poll
     * waits for its event: only the server canceling the call when its
     * client leaves ends it sooner. Records how it ended.
     */
    public function AwaitCancel(HelloRequest $request, Context $context): HelloReply
    {
        $start = microtime(true);
        try {
            Coroutine::sleep((float) $request->getName());
        } catch (CanceledException $e) {
            self::$events[] = sprintf('await %s: %s after %.1f s', $request->getName(),
                $context->isCancelled() ? 'cancelled' : 'cancelled, yet isCancelled() false', microtime(true) - $start);
            throw $e;
        }
        self::$events[] = sprintf('await %s: not cancelled after %.1f s', $request->getName(), microtime(true) - $start);

        return new HelloReply(['message' => 'awaited']);
    }

    /** The worker's state: coroutines alive (this call's own included) and the events so far. */
    public function Stats(HelloRequest $request): HelloReply
    {
        return new HelloReply(['message' => json_encode([
            'coroutines' => Coroutine::count(),
            'events' => self::$events,
            'pid' => getmypid(),
        ], JSON_THROW_ON_ERROR)]);
    }

    /** The metadata that arrived (binary values base64'd for JSON), and metadata sent back. */
    public function Metadata(HelloRequest $request, Context $context): HelloReply
    {
        $context->setHeader('x-header', 'from-probe');
        $context->setHeader('x-header-bin', "\x00\x01\xfe\xff header");
        $context->setTrailer('x-trailer', 'done');
        $context->setTrailer('x-trailer-bin', "\xff\x00 trailer");
        $metadata = [];
        foreach ($context->metadata() as $key => $value) {
            $metadata[$key] = str_ends_with($key, '-bin') ? base64_encode($value) : $value;
        }

        return new HelloReply(['message' => json_encode([
            'metadata' => $metadata,
            'method' => $context->method(),
            'time_remaining' => $context->timeRemaining(),
            'deadline_in' => $context->deadline() === null ? null : $context->deadline() - microtime(true),
            'protocol' => $context->request()->server()['SERVER_PROTOCOL'] ?? null,
            // The client's port: calls on one connection share it.
            'peer_port' => $context->request()->remotePort,
        ], JSON_THROW_ON_ERROR)]);
    }

    /**
     * How the request arrived: its grpc-encoding and the body's size (the
     * server has read the body from its stream, so its bytes are gone).
     */
    public function Inspect(HelloRequest $request, Context $context): HelloReply
    {
        return new HelloReply(['message' => json_encode([
            'grpc_encoding' => $context->request()->header('grpc-encoding'),
            'body_bytes' => $context->request()->bodySize(),
            'name_bytes' => strlen($request->getName()),
            'name_md5' => md5($request->getName()),
        ], JSON_THROW_ON_ERROR)]);
    }

    public function Echo(HelloRequest $request): HelloReply
    {
        return new HelloReply(['message' => $request->getName()]);
    }

    /**
     * A first reply, then a wait until Release is called (by the client,
     * once it has the first reply), then a second reply saying which came
     * first. A server that held the replies back until the handler ends
     * would leave the client waiting for the first until the wait gives up.
     *
     * @return Generator<int, HelloReply>
     */
    public function HoldStream(HelloRequest $request): Generator
    {
        self::$released = false;
        yield new HelloReply(['message' => 'first']);
        $giveUp = microtime(true) + (float) ($request->getName() ?: '10');
        while (!self::$released && microtime(true) < $giveUp) {
            Coroutine::sleep(0.01);
        }
        yield new HelloReply(['message' => self::$released ? 'released' : 'gave up waiting']);
    }

    public function Release(HelloRequest $request): HelloReply
    {
        self::$released = true;

        return new HelloReply(['message' => 'released']);
    }

    /**
     * Client streaming: when each message reached the method (its name and
     * microtime(true)), as JSON. Read as they arrive, each comes before the
     * client sends the next; read from a whole body, all come at the end.
     *
     * @param iterable<HelloRequest> $requests
     */
    public function Gather(#[Stream(HelloRequest::class)] iterable $requests): HelloReply
    {
        $arrivals = [];
        foreach ($requests as $request) {
            $arrivals[] = [$request->getName(), microtime(true)];
        }

        return new HelloReply(['message' => json_encode($arrivals, JSON_THROW_ON_ERROR)]);
    }

    /**
     * Both ways: each name straight back. How the client's stream ended is
     * recorded, so a test sees what a cancel did to the method.
     *
     * @param iterable<HelloRequest> $requests
     * @return Generator<int, HelloReply>
     */
    public function Chat(#[Stream(HelloRequest::class)] iterable $requests): Generator
    {
        $count = 0;
        try {
            foreach ($requests as $request) {
                $count++;
                yield new HelloReply(['message' => $request->getName()]);
            }
        } catch (GrpcException $e) {
            self::$events[] = sprintf('chat broke off after %d: %s: %s', $count, $e->status->name, $e->getMessage());
            throw $e;
        }
        self::$events[] = "chat ended after $count";
    }

    /**
     * Chat, but waiting at most 1 s for each next message: a method's own
     * bound on a client stream's pauses, which the server leaves unbounded.
     *
     * @param iterable<HelloRequest> $requests
     * @return Generator<int, HelloReply>
     */
    public function ImpatientChat(#[Stream(HelloRequest::class)] iterable $requests, Context $context): Generator
    {
        $context->request()->setBodyTimeout(1.0);
        foreach ($requests as $request) {
            yield new HelloReply(['message' => $request->getName()]);
        }
    }

    /**
     * setHeader() and setCompression() after the first reply are refused;
     * the refusals' messages are the second and third replies.
     */
    public function LateHeader(HelloRequest $request, Context $context): Generator
    {
        yield new HelloReply(['message' => 'first']);
        foreach ([static fn () => $context->setHeader('x-late', 'too late'), static fn () => $context->setCompression('gzip')]
            as $late) {
            try {
                $late();
                yield new HelloReply(['message' => 'accepted']);
            } catch (LogicException $e) {
                yield new HelloReply(['message' => get_class($e) . ': ' . $e->getMessage()]);
            }
        }
    }

    /**
     * A reply of the name's number of bytes of compressible text, compressed
     * as the x-compression metadata asks (the server's `compression`
     * without it); the x-compression trailer says what the call used.
     */
    public function Compressed(HelloRequest $request, Context $context): HelloReply
    {
        $encoding = $context->metadataValue('x-compression');
        if ($encoding !== null) {
            $context->setCompression($encoding);
        }
        $context->setTrailer('x-compression', $context->compression());
        $size = (int) $request->getName();

        return new HelloReply(['message' => substr(str_repeat('compressible ', intdiv($size, 13) + 1), 0, $size)]);
    }
}
