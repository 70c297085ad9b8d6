<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use ReflectionClass;
use ReflectionProperty;

/**
 * Puts the static properties of the application's own classes back after
 * each request, as a fresh php-fpm request would find them.
 *
 * Only classes declared in a file under one of the given directories count
 * (the app's code, not its vendor/ directory nor the framework): a
 * framework's statics are caches and registries it resets itself, or that
 * the adapter resets by name. A class loaded at boot returns to its value
 * at capture(); a class first loaded during a request returns to its
 * declared default, as if it had never been loaded.
 *
 * get_declared_classes() only ever grows at its end, so a restore()
 * examines just the classes declared since the previous one, and only after
 * a request that autoloaded something: building that list costs as much as
 * the rest of a Lumen adapter's reset, and a request almost never declares
 * a class. An autoloader put first in the chain notes each autoload (it
 * loads nothing itself); a class declared by a plain require outside the
 * autoloader is examined after the next request that autoloads. What cannot be
 * reached from here: static variables inside functions, and an object held
 * in a static property and changed in place (it is the same object again).
 *
 * @internal
 */
final class StaticProperties
{
    /** @var list<string> directories with a trailing slash */
    private array $include = [];

    /** @var list<string> */
    private array $exclude = [];

    /** Number of entries of get_declared_classes() already examined. */
    private int $seen = 0;

    /** Whether a class was autoloaded since the last scan. */
    private bool $autoloaded = false;

    /** @var list<array{ReflectionProperty, mixed}> */
    private array $tracked = [];

    /**
     * @param list<string> $include directories whose classes are reset
     * @param list<string> $exclude directories inside those that are not (vendor/)
     */
    public function __construct(array $include, array $exclude = [])
    {
        foreach ($include as $dir) {
            $this->include[] = self::normalize($dir);
        }
        foreach ($exclude as $dir) {
            $this->exclude[] = self::normalize($dir);
        }
        if ($this->include !== []) {
            spl_autoload_register(function (): void {
                $this->autoloaded = true;
            }, true, true);
        }
    }

    /** Takes the current values of the classes loaded so far as their clean state. */
    public function capture(): void
    {
        $this->scan(true);
    }

    public function restore(): void
    {
        if ($this->autoloaded) {
            $this->autoloaded = false;
            $this->scan(false);
        }
        foreach ($this->tracked as [$property, $value]) {
            $property->setValue(null, $value);
        }
    }

    private function scan(bool $current): void
    {
        if ($this->include === []) {
            return;
        }
        $classes = get_declared_classes();
        $count = count($classes);
        for ($i = $this->seen; $i < $count; $i++) {
            $class = new ReflectionClass($classes[$i]);
            if ($this->covers($class)) {
                $this->track($class, $current);
            }
        }
        $this->seen = $count;
    }

    private function covers(ReflectionClass $class): bool
    {
        $file = $class->getFileName();
        if ($file === false || $class->getStaticProperties() === []) {
            return false;
        }
        foreach ($this->exclude as $dir) {
            if (str_starts_with($file, $dir)) {
                return false;
            }
        }
        foreach ($this->include as $dir) {
            if (str_starts_with($file, $dir)) {
                return true;
            }
        }

        return false;
    }

    private function track(ReflectionClass $class, bool $current): void
    {
        foreach ($class->getProperties(ReflectionProperty::IS_STATIC) as $property) {
            // An inherited static shares its parent's storage: the parent's
            // own entry (if its file is covered) resets it.
            if ($property->getDeclaringClass()->name !== $class->name) {
                continue;
            }
            if ($current && $property->isInitialized()) {
                $this->tracked[] = [$property, $property->getValue()];
            } elseif (!$current && $property->hasDefaultValue()) {
                $this->tracked[] = [$property, $property->getDefaultValue()];
            }
        }
    }

    private static function normalize(string $dir): string
    {
        $real = realpath($dir);

        return rtrim($real === false ? $dir : $real, '/') . '/';
    }
}
