<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Closure;
use ReflectionClass;
use SplObjectStorage;

/**
 * The properties of one object as they were at a point in time, to put back
 * later: how a framework's container, config repository or router returns
 * to its state at boot after each request.
 *
 * Every declared property is kept, the private ones of parent classes too
 * (Pimple keeps its services in private arrays). Values are kept as they
 * are: arrays by value, objects by handle, so an object held in a property
 * is the same object after restore() but not rewound itself. The one
 * exception is SplObjectStorage, a mutable collection rather than a service
 * (Pimple's factories and protected closures), which is copied.
 *
 * @internal
 */
final class ObjectState
{
    /**
     * @param list<array{Closure(object, array<string, mixed>): void, array<string, mixed>}> $groups
     *        per declaring class: a writer in that class's scope and the values it puts back
     */
    private function __construct(
        private readonly object $object,
        private readonly array $groups,
    ) {
    }

    public static function capture(object $object): self
    {
        $groups = [];
        for ($class = new ReflectionClass($object); $class !== false; $class = $class->getParentClass()) {
            $values = [];
            foreach ($class->getProperties() as $property) {
                // Each property once, from the class that declares it; a
                // readonly one cannot change, an uninitialized typed one has
                // nothing to put back.
                if ($property->getDeclaringClass()->name !== $class->name
                    || $property->isStatic()
                    || $property->isReadOnly()
                    || !$property->isInitialized($object)) {
                    continue;
                }
                $values[$property->name] = self::copy($property->getValue($object));
            }
            if ($values !== []) {
                $groups[] = [self::writer($class->name), $values];
            }
        }

        return new self($object, $groups);
    }

    public function restore(): void
    {
        foreach ($this->groups as [$write, $values]) {
            $write($this->object, $values);
        }
    }

    /**
     * Plain assignments in the declaring class's scope, which reaches its
     * private properties too: a third of the cost of ReflectionProperty::setValue()
     * (the container alone has some thirty properties, put back per request).
     */
    private static function writer(string $class): Closure
    {
        return Closure::bind(static function (object $object, array $values): void {
            foreach ($values as $name => $value) {
                $object->$name = $value instanceof SplObjectStorage ? clone $value : $value;
            }
        }, null, $class);
    }

    private static function copy(mixed $value): mixed
    {
        return $value instanceof SplObjectStorage ? clone $value : $value;
    }
}
