<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Closure;

/**
 * One RPC method a Server serves: how its request messages are decoded,
 * how it is called, and how its replies are encoded.
 *
 * @internal
 */
final class RpcMethod
{
    /**
     * @param Closure(string): mixed $decode one request message from its bytes
     * @param Closure(mixed, \Rapier\Grpc\Context): mixed $invoke calls the method with the request (or the
     *        iterable of requests) and the call's Context
     * @param Closure(mixed): string $encode one reply's bytes
     * @param list<class-string> $messageClasses the message classes it names, request and reply (for reflection)
     */
    public function __construct(
        public readonly string $name,
        public readonly bool $clientStreaming,
        public readonly bool $serverStreaming,
        public readonly Closure $decode,
        public readonly Closure $invoke,
        public readonly Closure $encode,
        public readonly array $messageClasses = [],
    ) {
    }
}
