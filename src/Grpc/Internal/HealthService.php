<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Closure;
use Generator;
use Rapier\Channel;
use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\ServingStatus;
use Rapier\Grpc\Status;
use UnexpectedValueException;

/**
 * grpc.health.v1.Health (https://github.com/grpc/grpc/blob/master/doc/health-checking.md):
 * Check, as Kubernetes' grpc probes and grpc_health_probe call it, and
 * Watch, the stream of a service's status that gRPC's client-side health
 * checking and load balancers keep open. "" (the server) and each service
 * served are SERVING unless set otherwise; other names are NOT_FOUND to
 * Check and SERVICE_UNKNOWN to Watch until set. Once the worker stops,
 * everything is NOT_SERVING and the Watch streams end. Its two one-field
 * messages are read and written by hand, so it needs no generated code.
 *
 * The statuses are the worker's own: each worker process has its
 * HealthService.
 *
 * @internal
 */
final class HealthService
{
    public const SERVICE = 'grpc.health.v1.Health';
    public const FILE = 'grpc/health/v1/health.proto';
    /** HealthCheckResponse.ServingStatus.SERVICE_UNKNOWN: what Watch says of a name never set nor served. */
    private const SERVICE_UNKNOWN = 3;
    /** FieldDescriptorProto.Type */
    private const TYPE_STRING = 9;
    private const TYPE_ENUM = 14;

    /** @var array<string, ServingStatus> set by name */
    private array $statuses = [];
    /** @var array<int, array{string, Channel}> the Watch streams open: the name each watches, and its wake-up */
    private array $watchers = [];
    private int $nextWatcher = 0;
    private bool $stopped = false;

    /** @param Closure(): list<string> $services the names served now */
    public function __construct(private readonly Closure $services)
    {
    }

    /** Sets a name's status, and tells its Watch streams. Ignored once the worker stops: it stays NOT_SERVING. */
    public function set(string $service, ServingStatus $status): void
    {
        if ($this->stopped) {
            return;
        }
        $this->statuses[$service] = $status;
        $this->wake($service);
    }

    /** The worker is stopping: everything known is NOT_SERVING from now on, and each Watch stream says so and ends. */
    public function stop(): void
    {
        $this->stopped = true;
        foreach ($this->watchers as [$service]) {
            $this->wake($service);
        }
    }

    /** A name's status; null for one never set and not served. */
    public function status(string $service): ?ServingStatus
    {
        $known = isset($this->statuses[$service]) || $service === '' || in_array($service, ($this->services)(), true);
        if (!$known) {
            return null;
        }

        return $this->stopped ? ServingStatus::NOT_SERVING : $this->statuses[$service] ?? ServingStatus::SERVING;
    }

    /** @return array<string, RpcMethod> by method name */
    public function methods(): array
    {
        return [
            'Check' => new RpcMethod('Check', false, false, self::decodeRequest(...), $this->check(...), self::encodeReply(...)),
            'Watch' => new RpcMethod('Watch', false, true, self::decodeRequest(...), $this->watch(...), self::encodeReply(...)),
        ];
    }

    private function check(string $service, Context $context): int
    {
        return $this->status($service)?->value ?? throw new GrpcException("unknown service $service", Status::NOT_FOUND);
    }

    /**
     * The status now, then each change, until the client leaves or the
     * deadline passes (the server cancels the call, and the wait for a
     * change throws CanceledException), or the worker stops (NOT_SERVING,
     * then UNAVAILABLE so the client watches again elsewhere).
     *
     * @return Generator<int, int>
     */
    private function watch(string $service, Context $context): Generator
    {
        $wake = new Channel(1);
        $id = $this->nextWatcher++;
        $this->watchers[$id] = [$service, $wake];
        try {
            $sent = null;
            while (!$context->isCancelled()) {
                $now = $this->status($service)?->value ?? self::SERVICE_UNKNOWN;
                if ($now !== $sent) {
                    yield $now;
                    $sent = $now;
                }
                if ($this->stopped) {
                    throw new GrpcException('the server is stopping', Status::UNAVAILABLE);
                }
                $wake->pop();
            }
        } finally {
            unset($this->watchers[$id]);
        }
    }

    private function wake(string $service): void
    {
        foreach ($this->watchers as [$watched, $wake]) {
            // One pending wake-up is enough: the stream reads the status when it wakes.
            if ($watched === $service && $wake->length() === 0) {
                $wake->push(true, 0);
            }
        }
    }

    /** HealthCheckResponse { status = 1 (field 1, varint) } */
    private static function encodeReply(mixed $status): string
    {
        return ProtoWire::varintField(1, (int) $status);
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
     * The FileDescriptorProto of grpc/health/v1/health.proto, for server
     * reflection: written here, since the service has no generated code to
     * take it from.
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
        // MethodDescriptorProto: name 1, input_type 2, output_type 3, server_streaming 6.
        $method = static fn (string $name, bool $streaming): string => ProtoWire::bytesField(2, ProtoWire::bytesField(1, $name)
            . ProtoWire::bytesField(2, '.grpc.health.v1.HealthCheckRequest')
            . ProtoWire::bytesField(3, '.grpc.health.v1.HealthCheckResponse')
            . ($streaming ? ProtoWire::varintField(6, 1) : ''));

        return ProtoWire::bytesField(1, self::FILE)
            . ProtoWire::bytesField(2, 'grpc.health.v1')
            . $message('HealthCheckRequest', $field('service', self::TYPE_STRING))
            . $message('HealthCheckResponse',
                $field('status', self::TYPE_ENUM, '.grpc.health.v1.HealthCheckResponse.ServingStatus'),
                // DescriptorProto.enum_type (4): EnumDescriptorProto { name 1, value 2 }
                ProtoWire::bytesField(4, ProtoWire::bytesField(1, 'ServingStatus') . $statuses))
            . ProtoWire::bytesField(6, ProtoWire::bytesField(1, 'Health') . $method('Check', false) . $method('Watch', true))
            . ProtoWire::bytesField(12, 'proto3');
    }

    private static function malformed(): GrpcException
    {
        return new GrpcException('cannot decode the request message (grpc.health.v1.HealthCheckRequest)', Status::INTERNAL);
    }
}
