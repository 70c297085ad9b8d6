<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Symfony\Component\DependencyInjection\Container;
use Symfony\Component\DependencyInjection\ContainerInterface;

/**
 * Symfony's compiled container between requests.
 *
 * Symfony's model for long-running workers (Runtime with RoadRunner,
 * Swoole, FrankenPHP) keeps shared services alive across requests and
 * resets those tagged kernel.reset through the services_resetter service;
 * Kernel::handle() does it when the next request arrives, this does it as
 * soon as a request ends. On top of that, a service the request put into
 * the container with set() is taken out again (and one it replaced is put
 * back): the compiled container's own services are left alone, they are
 * built from definitions and stay warm.
 *
 * @internal
 */
final class SymfonyContainerState
{
    /** @param array<string, object> $services the container's set services at boot */
    private function __construct(
        private readonly ContainerInterface $container,
        private readonly array $services,
    ) {
    }

    public static function capture(ContainerInterface $container): self
    {
        return new self($container, self::services($container));
    }

    public function reset(): void
    {
        if ($this->container->has('services_resetter')) {
            $this->container->get('services_resetter')->reset();
        }
        if (!$this->container instanceof Container) {
            return;
        }
        (function (array $boot): void {
            foreach ($this->services as $id => $service) {
                if (isset($boot[$id])) {
                    $this->services[$id] = $boot[$id];
                } elseif (!isset($this->methodMap[$id]) && !isset($this->fileMap[$id])) {
                    unset($this->services[$id]);
                }
            }
        })->call($this->container, $this->services);
    }

    /** @return array<string, object> */
    private static function services(ContainerInterface $container): array
    {
        if (!$container instanceof Container) {
            return [];
        }

        return (fn (): array => $this->services)->call($container);
    }
}
