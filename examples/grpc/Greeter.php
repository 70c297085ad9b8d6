<?php

declare(strict_types=1);

namespace Examples\Grpc;

use Generator;
use Helloworld\HelloReply;
use Helloworld\HelloRequest;
use Helloworld\HelloStreamRequest;
use Rapier\Coroutine;
use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;
use Rapier\Grpc\Stream;

/** helloworld.Greeter of helloworld.proto: each public method taking a message is an RPC. */
final class Greeter
{
    /** Replies a server stream may ask for: the client chooses the count. */
    private const MAX_STREAM_REPLIES = 1000;

    /** Unary: rpc SayHello (HelloRequest) returns (HelloReply). */
    public function SayHello(HelloRequest $request, Context $context): HelloReply
    {
        $name = $request->getName();
        if ($name === '') {
            throw new GrpcException('name is empty: say who to greet', Status::INVALID_ARGUMENT);
        }
        // Metadata out: a header with the reply, a trailer with the status.
        $context->setHeader('x-greeter', 'rapier');
        $context->setTrailer('x-greeted', $name === strip_tags($name) ? 'yes' : 'with tags');

        return new HelloReply(['message' => "Hello, $name!"]);
    }

    /**
     * Server streaming: rpc SayHelloStream (HelloStreamRequest) returns
     * (stream HelloReply). Each reply reaches the client when it is
     * yielded, while the next one is being made.
     *
     * @return Generator<int, HelloReply>
     */
    public function SayHelloStream(HelloStreamRequest $request): Generator
    {
        $count = $request->getCount();
        if ($count < 1 || $count > self::MAX_STREAM_REPLIES) {
            throw new GrpcException(sprintf('count must be 1..%d, got %d', self::MAX_STREAM_REPLIES, $count),
                Status::OUT_OF_RANGE);
        }
        for ($i = 1; $i <= $count; $i++) {
            yield new HelloReply(['message' => sprintf('Hello, %s! (%d of %d)', $request->getName(), $i, $count)]);
            if ($i < $count) {
                Coroutine::sleep(0.01);   // some work between replies; other calls run meanwhile
            }
        }
    }

    /**
     * Client streaming: rpc SayHelloToAll (stream HelloRequest) returns
     * (HelloReply). The messages are decoded as the loop reaches them.
     *
     * @param iterable<HelloRequest> $requests
     */
    public function SayHelloToAll(#[Stream(HelloRequest::class)] iterable $requests): HelloReply
    {
        $names = [];
        foreach ($requests as $request) {
            $names[] = $request->getName();
        }

        return new HelloReply(['message' => $names === [] ? 'Hello, nobody!' : 'Hello, ' . implode(', ', $names) . '!']);
    }

    /**
     * Bidirectional streaming: rpc SayHelloChat (stream HelloRequest)
     * returns (stream HelloReply). Each request is read as it arrives and
     * answered at once, so a client may wait for a reply before it sends
     * its next request (served so by `rapier serve`, which reads request
     * bodies as they arrive; docs/grpc.md).
     *
     * @param iterable<HelloRequest> $requests
     * @return Generator<int, HelloReply>
     */
    public function SayHelloChat(#[Stream(HelloRequest::class)] iterable $requests): Generator
    {
        foreach ($requests as $request) {
            yield new HelloReply(['message' => "Hello, {$request->getName()}!"]);
        }
    }
}
