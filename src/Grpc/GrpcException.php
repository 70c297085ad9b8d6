<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use RuntimeException;
use Throwable;
use ValueError;

/**
 * Thrown by an RPC method to end the call with a status other than OK:
 * the client gets $code as grpc-status and $message as grpc-message.
 * Any other exception reaches the client as UNKNOWN "Internal error".
 *
 *     throw new GrpcException("no user $id", Status::NOT_FOUND);
 */
final class GrpcException extends RuntimeException
{
    public readonly Status $status;

    /** @param Status|int $code an error status (not OK), or its number 1..16 */
    public function __construct(string $message, Status|int $code = Status::UNKNOWN, ?Throwable $previous = null)
    {
        $status = $code instanceof Status ? $code : Status::tryFrom($code)
            ?? throw new ValueError("gRPC status codes are 0..16, got $code");
        if ($status === Status::OK) {
            throw new ValueError('GrpcException needs an error status, not OK: to answer OK, return the reply');
        }
        parent::__construct($message, $status->value, $previous);
        $this->status = $status;
    }
}
