<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;
use UnexpectedValueException;

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
    public const FILE = 'grpc/health/v1/health.proto';
    /** HealthCheckResponse.ServingStatus.SERVING */
    private const SERVING = 1;
    /** FieldDescriptorProto.Type */
    private const TYPE_STRING = 9;
    private const TYPE_ENUM = 14;

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
        try {
            $service = ProtoWire::last(ProtoWire::fields($bytes), 1) ?? '';
        } catch (UnexpectedValueException) {
            throw self::malformed();
        }

        return is_string($service) ? $service : throw self::malformed();
    }

    /**
     * The FileDescriptorProto of grpc/health/v1/health.proto as served
     * (Check only), for server reflection: written here, since the service
     * has no generated code to take it from.
     */
    public static function fileDescriptor(): string
    {
        $message = static fn (string $name, string ...$parts): string
            => ProtoWire::bytesField(4, ProtoWire::bytesField(1, $name) . implode('', $parts));
        // FieldDescriptorProto: name 1, number 3, label 4 (LABEL_OPTIONAL), type 5, type_name 6, json_name 10.
        $field = static fn (string $name, int $type, string $typeName = ''): string => ProtoWire::bytesField(2,
            ProtoWire::bytesField(1, $name) . ProtoWire::varintField(3, 1) . ProtoWire::varintField(4, 1)
            . ProtoWire::varintField(5, $type) . ($typeName === '' ? '' : ProtoWire::bytesField(6, $typeName))
            . ProtoWire::bytesField(10, $name));
        $statuses = '';
        foreach (['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as $number => $name) {
            $statuses .= ProtoWire::bytesField(2, ProtoWire::bytesField(1, $name) . ProtoWire::varintField(2, $number));
        }
        $check = ProtoWire::bytesField(1, 'Check') . ProtoWire::bytesField(2, '.grpc.health.v1.HealthCheckRequest')
            . ProtoWire::bytesField(3, '.grpc.health.v1.HealthCheckResponse');

        return ProtoWire::bytesField(1, self::FILE)
            . ProtoWire::bytesField(2, 'grpc.health.v1')
            . $message('HealthCheckRequest', $field('service', self::TYPE_STRING))
            . $message('HealthCheckResponse',
                $field('status', self::TYPE_ENUM, '.grpc.health.v1.HealthCheckResponse.ServingStatus'),
                // DescriptorProto.enum_type (4): EnumDescriptorProto { name 1, value 2 }
                ProtoWire::bytesField(4, ProtoWire::bytesField(1, 'ServingStatus') . $statuses))
            . ProtoWire::bytesField(6, ProtoWire::bytesField(1, 'Health') . ProtoWire::bytesField(2, $check))
            . ProtoWire::bytesField(12, 'proto3');
    }

    private static function malformed(): GrpcException
    {
        return new GrpcException('cannot decode the request message (grpc.health.v1.HealthCheckRequest)', Status::INTERNAL);
    }
}
