<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;

/**
 * grpc.health.v1.Health/Check (https://github.com/grpc/grpc/blob/master/doc/health-checking.md),
 * as Kubernetes' grpc probes and grpc_health_probe call it: SERVING for ""
 * (the server) and for each service served, NOT_FOUND for any other name.
 * Its two one-field messages are read and written by hand, so it needs no
 * generated code.
 *
 * @internal
 */
final class HealthCheck
{
    public const SERVICE = 'grpc.health.v1.Health';
    /** HealthCheckResponse.ServingStatus.SERVING */
    private const SERVING = 1;

    /** @param \Closure(): list<string> $services the names served now */
    public static function method(\Closure $services): RpcMethod
    {
        return new RpcMethod(
            'Check',
            false,
            false,
            self::decodeRequest(...),
            static function (mixed $service, Context $context) use ($services): string {
                if ($service !== '' && !in_array($service, $services(), true)) {
                    throw new GrpcException("unknown service $service", Status::NOT_FOUND);
                }
                // HealthCheckResponse { status = 1 (field 1, varint) }
                return "\x08" . chr(self::SERVING);
            },
            static fn (mixed $reply): string => (string) $reply,
        );
    }

    /**
     * HealthCheckRequest's field 1, `string service`; other fields are
     * skipped, as protobuf readers do with fields they do not know.
     *
     * @throws GrpcException INTERNAL for bytes that are not a protobuf message
     */
    public static function decodeRequest(string $bytes): string
    {
        $service = '';
        $at = 0;
        $end = strlen($bytes);
        while ($at < $end) {
            $tag = self::varint($bytes, $at);
            $field = $tag >> 3;
            switch ($tag & 7) {
                case 0:
                    self::varint($bytes, $at);
                    break;
                case 1:
                    $at += 8;
                    break;
                case 2:
                    $length = self::varint($bytes, $at);
                    if ($length > $end - $at) {
                        throw self::malformed();
                    }
                    if ($field === 1) {
                        $service = substr($bytes, $at, $length);
                    }
                    $at += $length;
                    break;
                case 5:
                    $at += 4;
                    break;
                default:
                    throw self::malformed();
            }
            if ($field === 0 || $at > $end) {
                throw self::malformed();
            }
        }

        return $service;
    }

    private static function varint(string $bytes, int &$at): int
    {
        $value = 0;
        for ($shift = 0; $shift < 64; $shift += 7) {
            if ($at >= strlen($bytes)) {
                throw self::malformed();
            }
            $byte = ord($bytes[$at++]);
            $value |= ($byte & 0x7F) << $shift;
            if ($byte < 0x80) {
                return $value;
            }
        }
        throw self::malformed();
    }

    private static function malformed(): GrpcException
    {
        return new GrpcException('cannot decode the request message (grpc.health.v1.HealthCheckRequest)', Status::INTERNAL);
    }
}
