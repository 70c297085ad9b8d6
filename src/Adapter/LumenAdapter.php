<?php

declare(strict_types=1);

namespace Rapier\Adapter;

use Closure;
use Laravel\Lumen\Application;
use Laravel\Lumen\Http\Request as LumenRequest;
use Rapier\Adapter\Internal\IlluminateState;
use Rapier\Adapter\Internal\RequestScope;
use Rapier\Adapter\Internal\SymfonyRequestFactory;
use Rapier\Adapter\Internal\SymfonyResponseSender;
use Rapier\Cache\LaravelCacheDriver;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Metrics\RouteAware;

/**
 * Serves a Lumen application (the Application bootstrap/app.php returns)
 * booted once per worker.
 *
 * Each request runs as Application::run() runs it under php-fpm: dispatch(),
 * send, then the terminable global middleware. Lumen's handle() would call
 * the terminable middleware before the response is sent. Lumen is a
 * container of the same family as Laravel's, and IlluminateState resets it
 * the same way (its lazily registered components included: a component
 * first loaded by a request is loaded again by the next one that needs it).
 */
final class LumenAdapter implements Adapter, RouteAware
{
    /** @var array{string, mixed}|null the method and matched action of the last request, for lastRoute() */
    private ?array $lastMatch = null;

    private readonly IlluminateState $state;

    private readonly RequestScope $scope;

    /** Runs the terminable global middleware, as Application::run() does after sending. */
    private readonly Closure $terminate;

    public function __construct(private readonly Application $app)
    {
        $base = $app->basePath();
        $this->state = new IlluminateState($app);
        $this->scope = new RequestScope($base . '/public/index.php', [$base], [$base . '/vendor']);
        $this->terminate = Closure::bind(function (object $response): void {
            if (count($this->middleware) > 0) {
                $this->callTerminableMiddleware($response);
            }
        }, $app, Application::class);
    }

    public function boot(): void
    {
        LaravelCacheDriver::register($this->app);
        $this->app->boot();
        // Lumen compiles its FastRoute dispatcher (every route's pattern) on
        // each request that no static route matches, unless one is set:
        // under php-fpm it must, here it is built once per worker.
        (function (): void {
            $this->dispatcher ??= $this->createDispatcher();
        })->call($this->app);
        $this->state->capture([$this->app->router]);
        $this->scope->capture();
    }

    /**
     * Lumen's matched route carries its action, not its URI: the URI is the
     * registered route with that same action. Looked up only when asked
     * (metrics), not for every request.
     */
    public function lastRoute(): ?string
    {
        if ($this->lastMatch === null) {
            return null;
        }
        [$method, $action] = $this->lastMatch;
        foreach ($this->app->router->getRoutes() as $route) {
            if ($route['method'] === $method && $route['action'] === $action) {
                return '/' . ltrim($route['uri'], '/');
            }
        }

        return null;
    }

    public function handle(Request $request, Response $response): void
    {
        $this->lastMatch = null;
        $lumenRequest = null;
        $serve = function (array $server) use ($request, $response, &$lumenRequest): void {
            $lumenRequest = SymfonyRequestFactory::createIlluminate($request, $server, LumenRequest::class);
            $lumenResponse = $this->app->dispatch($lumenRequest);
            SymfonyResponseSender::send($lumenResponse, $response, $this->scope->output);
            ($this->terminate)($lumenResponse);
        };
        $this->scope->run($request, $response, $serve, function () use (&$lumenRequest): void {
            // Here rather than after dispatch(), so that it happens after an exit() too.
            $info = $lumenRequest?->route();
            $this->lastMatch = is_array($info) && isset($info[1]) ? [$lumenRequest->getMethod(), $info[1]] : null;
            $this->state->reset();
        });
    }
}
