<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use Attribute;

/**
 * Marks an RPC method's `iterable` first parameter as the client's stream
 * of request messages, and names their class (PHP cannot type the
 * elements of an iterable):
 *
 *     public function record(#[Stream(Point::class)] iterable $points): Summary
 */
#[Attribute(Attribute::TARGET_PARAMETER)]
final class Stream
{
    /** @param class-string<\Google\Protobuf\Internal\Message> $messageClass */
    public function __construct(public readonly string $messageClass)
    {
    }
}
