<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use ReflectionClass;
use ReflectionProperty;
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
    /** @param list<array{ReflectionProperty, mixed}> $properties */
    private function __construct(
        private readonly object $object,
        private readonly array $properties,
    ) {
    }

    public static function capture(object $object): self
    {
        $properties = [];
        for ($class = new ReflectionClass($object); $class !== false; $class = $class->getParentClass()) {
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
                $properties[] = [$property, self::copy($property->getValue($object))];
            }
        }

        return new self($object, $properties);
    }

    public function restore(): void
    {
        foreach ($this->properties as [$property, $value]) {
            $property->setValue($this->object, self::copy($value));
        }
    }

    private static function copy(mixed $value): mixed
    {
        return $value instanceof SplObjectStorage ? clone $value : $value;
    }
}
