<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Google\Protobuf\Any;
use Google\Protobuf\Internal\Message;
use Rapier\Grpc\Status;
use UnexpectedValueException;

/**
 * gRPC's rich error model: a google.rpc.Status (code 1, message 2,
 * details 3 as google.protobuf.Any) in the grpc-status-details-bin
 * trailer, which clients' status libraries read (grpc-go's status.FromError,
 * grpcio-status, grpc-java's StatusProto). Written by hand, as it is three
 * fields: no generated code of googleapis is needed to send or read it.
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

    /**
     * The details of a received google.rpc.Status, each a
     * google.protobuf.Any to unpack() into the application's class. Bytes
     * that are not a Status give none: the call's status and message still
     * stand, as gRPC's clients keep them.
     *
     * @return list<Any>
     */
    public static function decode(string $bytes): array
    {
        try {
            $fields = ProtoWire::fields($bytes);
            $details = [];
            foreach (ProtoWire::strings($fields, 3) as $packed) {
                $any = ProtoWire::fields($packed);
                $details[] = new Any([
                    'type_url' => (string) ProtoWire::last($any, 1),
                    'value' => (string) ProtoWire::last($any, 2),
                ]);
            }
        } catch (UnexpectedValueException) {
            return [];
        }

        return $details;
    }
}
