<?php

declare(strict_types=1);

namespace Rapier\Adapter;

use Rapier\Adapter\Internal\RequestScope;
use Rapier\Adapter\Internal\SymfonyContainerState;
use Rapier\Adapter\Internal\SymfonyRequestFactory;
use Rapier\Adapter\Internal\SymfonyResponseSender;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Metrics\RouteAware;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpKernel\EventListener\StreamedResponseListener;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\HttpKernel\KernelInterface;
use Symfony\Component\HttpKernel\TerminableInterface;
use Symfony\Contracts\Service\ResetInterface;

/**
 * Serves a Symfony HttpKernelInterface (typically the app's Kernel) booted
 * once per worker.
 *
 * Each request goes through handle() and terminate() as in public/index.php.
 * Then Symfony's own reset contract runs at once, rather than at the start
 * of the next request as Kernel::handle() would: every service tagged
 * kernel.reset (anything implementing ResetInterface is, by autoconfigure;
 * the session listener, the request stack, loggers...) via
 * services_resetter. A service the request set() into the container is
 * removed. A kernel that is not a Kernel but implements ResetInterface
 * is reset().
 *
 * FrameworkBundle's StreamedResponseListener (Symfony 5; deprecated in 6.1)
 * sends a StreamedResponse from inside the kernel, to PHP's own output:
 * under php-fpm the client, here the worker's stdout. It is taken off, so
 * that the adapter streams the response to the client as its callback
 * echoes, as it does without the listener.
 */
final class SymfonyAdapter implements Adapter, RouteAware
{
    /** The route pattern of the last request, for metrics. */
    private ?string $lastRoute = null;
    /** @var array<string, string> route name => path pattern */
    private array $routePaths = [];

    private readonly RequestScope $scope;

    private ?SymfonyContainerState $container = null;

    public function __construct(private readonly HttpKernelInterface $kernel)
    {
        $project = $kernel instanceof KernelInterface ? $kernel->getProjectDir() : null;
        $this->scope = $project === null
            ? new RequestScope()
            : new RequestScope($project . '/public/index.php', [$project], [$project . '/vendor']);
    }

    public function boot(): void
    {
        if ($this->kernel instanceof KernelInterface) {
            $this->kernel->boot();
            self::removeStreamedResponseListener($this->kernel->getContainer());
            $this->container = SymfonyContainerState::capture($this->kernel->getContainer());
        }
        $this->scope->capture();
    }

    public function lastRoute(): ?string
    {
        return $this->lastRoute;
    }

    public function handle(Request $request, Response $response): void
    {
        $this->lastRoute = null;
        $symfonyRequest = null;
        $serve = function (array $server) use ($request, $response, &$symfonyRequest): void {
            $symfonyRequest = SymfonyRequestFactory::create($request, $server);
            $symfonyResponse = $this->kernel->handle($symfonyRequest);
            SymfonyResponseSender::send($symfonyResponse, $response, $this->scope->output);
            if ($this->kernel instanceof TerminableInterface) {
                $this->kernel->terminate($symfonyRequest, $symfonyResponse);
            }
        };
        $this->scope->run($request, $response, $serve, function () use (&$symfonyRequest): void {
            try {
                // Here rather than after handle(), so that it happens after an exit() too.
                $this->lastRoute = $this->routePath($symfonyRequest?->attributes->get('_route'));
            } finally {
                $this->reset();
            }
        });
    }

    /** The path pattern of a route name ("/users/{id}"), or the name when the router cannot tell. */
    private function routePath(mixed $name): ?string
    {
        if (!is_string($name)) {
            return null;
        }
        if (!array_key_exists($name, $this->routePaths)) {
            $path = null;
            $container = $this->kernel instanceof KernelInterface ? $this->kernel->getContainer() : null;
            if ($container !== null && $container->has('router')) {
                $path = $container->get('router')->getRouteCollection()->get($name)?->getPath();
            }
            $this->routePaths[$name] = $path ?? $name;
        }

        return $this->routePaths[$name];
    }

    private static function removeStreamedResponseListener(ContainerInterface $container): void
    {
        if (!class_exists(StreamedResponseListener::class) || !$container->has('event_dispatcher')) {
            return;
        }
        $dispatcher = $container->get('event_dispatcher');
        foreach ($dispatcher->getListeners(KernelEvents::RESPONSE) as $listener) {
            if (is_array($listener) && $listener[0] instanceof StreamedResponseListener) {
                $dispatcher->removeListener(KernelEvents::RESPONSE, $listener);
            }
        }
    }

    private function reset(): void
    {
        if ($this->container !== null) {
            $this->container->reset();
        } elseif ($this->kernel instanceof ResetInterface) {
            $this->kernel->reset();
        }
    }
}
