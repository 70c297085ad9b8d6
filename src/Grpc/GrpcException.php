<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use Google\Protobuf\Internal\Message;
use RuntimeException;
use Throwable;
use TypeError;
use ValueError;

/**
 * Thrown by an RPC method to end the call with a status other than OK:
 * the client gets $code as grpc-status and $message as grpc-message, and
 * $details, if any, as a google.rpc.Status in grpc-status-details-bin
 * (gRPC's rich error model). Any other exception reaches the client as
 * UNKNOWN "Internal error".
 *
 *     throw new GrpcException("no user $id", Status::NOT_FOUND);
 *     throw new GrpcException('invalid name', Status::INVALID_ARGUMENT, details: [new BadRequest([...])]);
 *
 * Client::unary() and Call::read() throw it too, for a call that ended
 * with a status other than OK: the server's grpc-status and grpc-message,
 * and its rich error details as google.protobuf.Any.
 */
final class GrpcException extends RuntimeException
{
    public readonly Status $status;

    /**
     * @param Status|int $code an error status (not OK), or its number 1..16
     * @param list<Message> $details protobuf messages about the error (google.rpc.BadRequest, ErrorInfo,
     *        RetryInfo... or messages of your own), each sent packed in a google.protobuf.Any (an Any as it is)
     * @throws ValueError for OK or a number that is no status
     * @throws TypeError for a detail that is not a protobuf message
     */
    public function __construct(
        string $message,
        Status|int $code = Status::UNKNOWN,
        ?Throwable $previous = null,
        public readonly array $details = [],
    ) {
        $status = $code instanceof Status ? $code : Status::tryFrom($code)
            ?? throw new ValueError("gRPC status codes are 0..16, got $code");
        if ($status === Status::OK) {
            throw new ValueError('GrpcException needs an error status, not OK: to answer OK, return the reply');
        }
        foreach ($details as $i => $detail) {
            if (!$detail instanceof Message) {
                throw new TypeError("GrpcException's details must be protobuf messages (generated classes), "
                    . "got " . get_debug_type($detail) . " at [$i]");
            }
        }
        parent::__construct($message, $status->value, $previous);
        $this->status = $status;
    }
}
