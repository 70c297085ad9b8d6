<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Google\Protobuf\Internal\Message;
use Rapier\Grpc\Context;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\InvalidServiceException;
use Rapier\Grpc\Status;
use Rapier\Grpc\Stream;
use ReflectionMethod;
use ReflectionNamedType;
use ReflectionObject;
use ReflectionParameter;
use ReflectionType;
use UnexpectedValueException;

/**
 * Finds the RPC methods of a service implementation: its public methods
 * whose first parameter is a protobuf message (unary or server streaming)
 * or an `iterable` marked #[Stream(Message::class)] (client streaming, or
 * bidirectional with a stream returned).
 * Other public methods are helpers and are left alone; a method that
 * looks like an RPC but cannot be served is refused, saying why.
 *
 * @internal
 */
final class ServiceReflector
{
    /** Return types that make a method server streaming. */
    private const STREAM_TYPES = ['iterable', 'Generator', 'Traversable', 'Iterator', 'IteratorAggregate'];

    /**
     * @return array<string, RpcMethod> by the method's declared name
     * @throws InvalidServiceException
     */
    public static function methods(string $service, object $implementation): array
    {
        $methods = [];
        foreach ((new ReflectionObject($implementation))->getMethods(ReflectionMethod::IS_PUBLIC) as $method) {
            if ($method->isStatic() || str_starts_with($method->getName(), '__')) {
                continue;
            }
            $rpc = self::describe($service, $implementation, $method);
            if ($rpc !== null) {
                $methods[$rpc->name] = $rpc;
            }
        }
        if ($methods === []) {
            throw new InvalidServiceException(sprintf('%s (%s) has no RPC methods: an RPC method is public, takes a '
                . 'protobuf message (a subclass of %s) as its first parameter, or an iterable marked '
                . '#[Rapier\Grpc\Stream(Message::class)] for a client stream, and declares its return type',
                $service, get_class($implementation), Message::class));
        }

        return $methods;
    }

    private static function describe(string $service, object $implementation, ReflectionMethod $method): ?RpcMethod
    {
        $parameters = $method->getParameters();
        if ($parameters === []) {
            return null;
        }
        $where = sprintf('%s::%s() (service %s)', get_class($implementation), $method->getName(), $service);
        $request = self::requestClass($parameters[0], $where);
        if ($request === null) {
            return null;
        }
        [$requestClass, $clientStreaming] = $request;
        $takesContext = false;
        if (isset($parameters[1])) {
            $type = $parameters[1]->getType();
            if (!$type instanceof ReflectionNamedType || $type->getName() !== Context::class) {
                throw new InvalidServiceException("$where: the second parameter, \${$parameters[1]->getName()}, must be "
                    . 'typed Rapier\Grpc\Context (or be left out), got ' . self::typeName($type));
            }
            $takesContext = true;
        }
        foreach (array_slice($parameters, 2) as $extra) {
            if (!$extra->isOptional()) {
                throw new InvalidServiceException("$where: an RPC method takes the request and a Context only; "
                    . "\${$extra->getName()} needs a default value, or remove it");
            }
        }
        $serverStreaming = self::returnsStream($method, $where);
        $replyType = $method->getReturnType();
        $messageClasses = [$requestClass];
        if (!$serverStreaming && $replyType instanceof ReflectionNamedType && $replyType->getName() !== $requestClass) {
            $messageClasses[] = $replyType->getName();
        }
        $name = $method->getName();
        $decode = static function (string $bytes) use ($requestClass): Message {
            $message = new $requestClass();
            try {
                $message->mergeFromString($bytes);
            } catch (\Throwable $e) {
                throw new GrpcException("cannot decode the request message ($requestClass): " . $e->getMessage(),
                    Status::INTERNAL, $e);
            }

            return $message;
        };
        $invoke = $takesContext
            ? static fn (mixed $request, Context $context): mixed => $implementation->$name($request, $context)
            : static fn (mixed $request, Context $context): mixed => $implementation->$name($request);
        $encode = static fn (mixed $reply): string => $reply instanceof Message ? $reply->serializeToString()
            : throw new UnexpectedValueException(sprintf('%s %s %s, not a protobuf message', $where,
                $serverStreaming ? 'yielded' : 'returned', get_debug_type($reply)));

        return new RpcMethod($name, $clientStreaming, $serverStreaming, $decode, $invoke, $encode, $messageClasses);
    }

    /**
     * The request message class and whether the client streams them, or
     * null when the method is not an RPC method.
     *
     * @return array{class-string<Message>, bool}|null
     */
    private static function requestClass(ReflectionParameter $parameter, string $where): ?array
    {
        $type = $parameter->getType();
        $stream = $parameter->getAttributes(Stream::class);
        $named = $type instanceof ReflectionNamedType ? $type->getName() : null;
        if ($stream !== []) {
            $class = $stream[0]->newInstance()->messageClass;
            if ($named !== 'iterable') {
                throw new InvalidServiceException("$where: #[Stream] marks the client's stream of messages, so "
                    . "\${$parameter->getName()} must be typed iterable, got " . self::typeName($type));
            }
            if (!is_subclass_of($class, Message::class)) {
                throw new InvalidServiceException("$where: #[Stream($class::class)] must name a protobuf message "
                    . 'class (a subclass of ' . Message::class . ')' . (class_exists($class) ? '' : '; no such class is loadable'));
            }

            return [$class, true];
        }
        if ($named === 'iterable') {
            throw new InvalidServiceException("$where: a client-streaming method names its message class with "
                . "#[Rapier\Grpc\Stream(TheMessage::class)] on \${$parameter->getName()}");
        }
        if ($named === null || ($type instanceof ReflectionNamedType && $type->isBuiltin())) {
            return null;
        }
        if (!class_exists($named) && !interface_exists($named)) {
            throw new InvalidServiceException("$where: the type of \${$parameter->getName()}, $named, is not a loadable "
                . 'class (is the code protoc generated autoloaded?)');
        }

        return is_subclass_of($named, Message::class) ? [$named, false] : null;
    }

    private static function returnsStream(ReflectionMethod $method, string $where): bool
    {
        $type = $method->getReturnType();
        if ($type instanceof ReflectionNamedType) {
            if (in_array(ltrim($type->getName(), '\\'), self::STREAM_TYPES, true)) {
                return true;
            }
            if (!$type->isBuiltin() && is_subclass_of($type->getName(), Message::class)) {
                return false;
            }
        }
        throw new InvalidServiceException("$where: declare the return type, a protobuf message class for one reply "
            . 'or iterable (a Generator: yield the replies) for a stream of replies; got ' . self::typeName($type));
    }

    private static function typeName(?ReflectionType $type): string
    {
        return $type === null ? 'no type' : (string) $type;
    }
}
