<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Closure;
use Generator;
use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;
use UnexpectedValueException;

/**
 * gRPC server reflection (grpc.reflection.v1 and v1alpha, the same
 * messages; https://github.com/grpc/grpc/blob/master/doc/server-reflection.md),
 * which grpcurl, grpcui and Postman use to call a server without its .proto
 * files: the services served, and the descriptor of the file declaring a
 * symbol, with the files it imports. The descriptors come from the code
 * protoc generated (GeneratedDescriptors); grpc.health.v1.Health's, which
 * has none, from HealthService. Its messages are read and written by hand.
 *
 * @internal
 */
final class Reflection
{
    public const SERVICES = ['grpc.reflection.v1.ServerReflection', 'grpc.reflection.v1alpha.ServerReflection'];
    public const METHOD = 'ServerReflectionInfo';

    /** ServerReflectionRequest's oneof message_request */
    private const FILE_BY_FILENAME = 3;
    private const FILE_CONTAINING_SYMBOL = 4;
    private const FILE_CONTAINING_EXTENSION = 5;
    private const ALL_EXTENSION_NUMBERS_OF_TYPE = 6;
    private const LIST_SERVICES = 7;

    private ?DescriptorIndex $index = null;
    /** The services the index was built for, and how many classes were loaded then. */
    private string $indexedServices = '';
    private int $indexedClasses = 0;

    /**
     * @param Closure(): array<string, list<class-string>> $served the services served now, each with the message
     *        classes its methods name (loaded before the descriptors are read, so their files are among them)
     */
    public function __construct(private readonly Closure $served)
    {
    }

    public function method(): RpcMethod
    {
        return new RpcMethod(
            self::METHOD,
            true,
            true,
            static fn (string $bytes): string => $bytes,
            function (iterable $requests, Context $context): Generator {
                // The files this stream has been sent: each goes to a client once.
                $sent = [];
                foreach ($requests as $request) {
                    yield $this->answer($request, $sent);
                }
            },
            static fn (mixed $reply): string => (string) $reply,
        );
    }

    /**
     * A ServerReflectionResponse to one request: what it asked for, or an
     * error_response (NOT_FOUND) for a name unknown, the stream going on.
     *
     * @param array<string, true> $sent
     * @throws GrpcException INTERNAL for bytes that are not a request, INVALID_ARGUMENT for a request of nothing
     */
    private function answer(string $request, array &$sent): string
    {
        try {
            $host = '';
            $kind = null;
            foreach (ProtoWire::fields($request) as [$number, $value]) {
                if ($number === 1 && is_string($value)) {
                    $host = $value;
                } elseif ($number >= self::FILE_BY_FILENAME && $number <= self::LIST_SERVICES) {
                    // A oneof: the last of its fields on the wire is the one set.
                    $kind = [$number, $value];
                }
            }
            $answer = $kind === null ? null : $this->lookUp($kind[0], $kind[1], $sent);
        } catch (UnexpectedValueException) {
            throw new GrpcException('cannot decode the request message (grpc.reflection.v1.ServerReflectionRequest)',
                Status::INTERNAL);
        }
        if ($answer === null) {
            throw new GrpcException('the reflection request asks for nothing: set one of file_by_filename, '
                . 'file_containing_symbol, file_containing_extension, all_extension_numbers_of_type, list_services',
                Status::INVALID_ARGUMENT);
        }

        return ($host === '' ? '' : ProtoWire::bytesField(1, $host)) . ProtoWire::bytesField(2, $request) . $answer;
    }

    /**
     * The response's message_response for one kind of request.
     *
     * @param array<string, true> $sent
     * @throws UnexpectedValueException for a request field of the wrong wire type
     */
    private function lookUp(int $kind, int|string $value, array &$sent): string
    {
        if (!is_string($value)) {
            throw new UnexpectedValueException("field $kind is not a string or message");
        }
        $symbol = ltrim($value, '.');

        return match ($kind) {
            self::LIST_SERVICES => $this->listServices(),
            self::ALL_EXTENSION_NUMBERS_OF_TYPE => $this->extensionNumbers($symbol),
            self::FILE_CONTAINING_EXTENSION => $this->extensionFile(ProtoWire::fields($value), $sent),
            self::FILE_BY_FILENAME => $this->files(
                $this->find(static fn (DescriptorIndex $index): ?string => $index->has($value) ? $value : null),
                "file $value is not known", $sent),
            default => $this->files($this->find(static fn (DescriptorIndex $index): ?string => $index->fileOf($symbol)),
                "symbol $symbol is not known (is the code protoc generated for its .proto file loaded?)", $sent),
        };
    }

    private function listServices(): string
    {
        $services = '';
        foreach (array_keys(($this->served)()) as $name) {
            // ListServiceResponse.service: ServiceResponse { name }
            $services .= ProtoWire::bytesField(1, ProtoWire::bytesField(1, $name));
        }

        return ProtoWire::bytesField(6, $services);
    }

    /** ExtensionNumberResponse { base_type_name, packed extension_number }, or NOT_FOUND for no such message. */
    private function extensionNumbers(string $type): string
    {
        $numbers = $this->find(static fn (DescriptorIndex $index): ?array => $index->extensionNumbers($type));
        if ($numbers === null) {
            return self::notFound("message $type is not known");
        }
        $packed = implode('', array_map(ProtoWire::varint(...), $numbers));

        return ProtoWire::bytesField(5, ProtoWire::bytesField(1, $type)
            . ($packed === '' ? '' : ProtoWire::bytesField(2, $packed)));
    }

    /**
     * @param list<array{int, int|string}> $request ExtensionRequest's fields { containing_type, extension_number }
     * @param array<string, true> $sent
     */
    private function extensionFile(array $request, array &$sent): string
    {
        $type = ltrim((string) ProtoWire::last($request, 1), '.');
        $number = (int) ProtoWire::last($request, 2);

        return $this->files($this->find(static fn (DescriptorIndex $index): ?string => $index->fileOfExtension($type, $number)),
            "no extension $number of message $type is known", $sent);
    }

    /**
     * FileDescriptorResponse: $file's descriptor and those of its imports
     * not sent on this stream yet; NOT_FOUND saying $unknown for no file.
     *
     * @param array<string, true> $sent
     */
    private function files(?string $file, string $unknown, array &$sent): string
    {
        if ($file === null) {
            return self::notFound($unknown);
        }
        $response = '';
        foreach ($this->index()->withImports($file, $sent) as $descriptor) {
            $response .= ProtoWire::bytesField(1, $descriptor);
        }

        return ProtoWire::bytesField(4, $response);
    }

    /**
     * $lookUp's answer from the index, built again first if the services
     * changed, and once more if it finds nothing while classes were loaded
     * since (a file's metadata class loads with its first message).
     *
     * @template T
     * @param Closure(DescriptorIndex): (T|null) $lookUp
     * @return T|null
     */
    private function find(Closure $lookUp): mixed
    {
        $found = $lookUp($this->index());
        if ($found === null && count(get_declared_classes()) !== $this->indexedClasses) {
            $this->index = null;
            $found = $lookUp($this->index());
        }

        return $found;
    }

    private function index(): DescriptorIndex
    {
        $served = ($this->served)();
        $services = implode("\n", array_keys($served));
        if ($this->index !== null && $services === $this->indexedServices) {
            return $this->index;
        }
        foreach ($served as $classes) {
            foreach ($classes as $class) {
                // Runs its file's initOnce(), which loads the metadata classes of the file and its imports.
                new $class();
            }
        }
        $index = new DescriptorIndex();
        foreach (GeneratedDescriptors::loaded() as $source => $descriptors) {
            foreach ($descriptors as $descriptor) {
                try {
                    $index->add($descriptor);
                } catch (UnexpectedValueException $e) {
                    error_log("gRPC reflection: a file descriptor in $source cannot be read ({$e->getMessage()}); "
                        . 'it is left out');
                }
            }
        }
        if (isset($served[HealthService::SERVICE]) && $index->fileOf(HealthService::SERVICE) === null) {
            $index->add(HealthService::fileDescriptor());
        }
        $this->indexedServices = $services;
        $this->indexedClasses = count(get_declared_classes());

        return $this->index = $index;
    }

    private static function notFound(string $message): string
    {
        return ProtoWire::bytesField(7, ProtoWire::varintField(1, Status::NOT_FOUND->value)
            . ProtoWire::bytesField(2, $message));
    }
}
