<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Google\Protobuf\Any;
use Google\Protobuf\Internal\Message;
use Rapier\Grpc\Status;

/**
 * gRPC's rich error model: a google.rpc.Status (code 1, message 2,
 * details 3 as google.protobuf.Any) in the grpc-status-details-bin
 * trailer, which clients' status libraries read (grpc-go's status.FromError,
 * grpcio-status, grpc-java's StatusProto). Written by hand, as it is three
 * fields: no generated code of googleapis is needed to send it.
 *
 * @internal
 */
final class StatusDetails
{
    public const TRAILER = 'grpc-status-details-bin';

    /**
     * google.rpc.Status's bytes. Its code and message are the call's
     * grpc-status and grpc-message, as clients check.
     *
     * @param list<Message> $details
     */
    public static function encode(Status $status, string $message, array $details): string
    {
        $bytes = ProtoWire::varintField(1, $status->value) . ($message === '' ? '' : ProtoWire::bytesField(2, $message));
        foreach ($details as $detail) {
            if (!$detail instanceof Any) {
                $any = new Any();
                $any->pack($detail);
                $detail = $any;
            }
            $bytes .= ProtoWire::bytesField(3, $detail->serializeToString());
        }

        return $bytes;
    }
}
