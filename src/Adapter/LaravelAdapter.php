<?php

declare(strict_types=1);

namespace Rapier\Adapter;

use Illuminate\Contracts\Http\Kernel as HttpKernelContract;
use Illuminate\Foundation\Application;
use Illuminate\Foundation\Bootstrap\RegisterProviders;
use Illuminate\Foundation\Bootstrap\SetRequestForConsole;
use Illuminate\Foundation\Http\Kernel;
use Illuminate\Http\Request as IlluminateRequest;
use Illuminate\Routing\Route;
use Rapier\Adapter\Internal\IlluminateState;
use Rapier\Adapter\Internal\RequestScope;
use Rapier\Adapter\Internal\SymfonyRequestFactory;
use Rapier\Adapter\Internal\SymfonyResponseSender;
use Rapier\Cache\LaravelCacheDriver;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Metrics\RouteAware;

/**
 * Serves a Laravel application (the Application bootstrap/app.php returns)
 * booted once per worker, the way Laravel Octane does.
 *
 * boot() runs the HTTP kernel's bootstrappers (environment, config,
 * exception handling, facades, providers, with a request made from
 * app.url in place while providers register, as Octane does), loads the
 * deferred providers and resolves the common services; it adds the cache
 * driver `rapier` (docs/cache.md) first. Each request then
 * goes through the kernel's handle() and terminate() as in public/index.php,
 * and IlluminateState puts the application back as it was at boot.
 * docs/frameworks.md lists what is reset and what is not.
 */
final class LaravelAdapter implements Adapter, RouteAware
{
    /** The route pattern of the last request, for metrics. */
    private ?string $lastRoute = null;

    private Kernel $kernel;

    private readonly IlluminateState $state;

    private readonly RequestScope $scope;

    public function __construct(private readonly Application $app)
    {
        $base = $app->basePath();
        $this->state = new IlluminateState($app);
        $this->scope = new RequestScope($app->publicPath() . '/index.php', [$base], [$base . '/vendor']);
    }

    public function boot(): void
    {
        self::notInConsole($this->app);
        LaravelCacheDriver::register($this->app);
        $this->kernel = $this->app->make(HttpKernelContract::class);
        if (!$this->app->hasBeenBootstrapped()) {
            $this->app->bootstrapWith(self::bootstrappers($this->kernel));
        }
        $this->app->loadDeferredProviders();
        $this->state->capture([$this->kernel]);
        $this->scope->capture();
    }

    public function lastRoute(): ?string
    {
        return $this->lastRoute;
    }

    public function handle(Request $request, Response $response): void
    {
        $this->lastRoute = null;
        $laravelRequest = null;
        $serve = function (array $server) use ($request, $response, &$laravelRequest): void {
            $laravelRequest = SymfonyRequestFactory::createIlluminate($request, $server, IlluminateRequest::class);
            $laravelResponse = $this->kernel->handle($laravelRequest);
            SymfonyResponseSender::send($laravelResponse, $response, $this->scope->output);
            $this->kernel->terminate($laravelRequest, $laravelResponse);
        };
        $this->scope->run($request, $response, $serve, function () use (&$laravelRequest): void {
            // Here rather than after terminate(), so that it happens after an exit() too.
            $route = $laravelRequest?->route();
            if ($route instanceof Route) {
                $this->lastRoute = '/' . ltrim($route->uri(), '/');
                // The route keeps its controller instance between requests.
                $route->flushController();
            }
            $this->state->reset();
        });
    }

    /**
     * A server is not a console: without this, PHP_SAPI "cli" makes
     * runningInConsole() true, and Laravel renders uncaught exceptions for a
     * terminal and registers console commands.
     */
    private static function notInConsole(Application $app): void
    {
        if (!isset($_SERVER['APP_RUNNING_IN_CONSOLE']) && !isset($_ENV['APP_RUNNING_IN_CONSOLE'])) {
            $_SERVER['APP_RUNNING_IN_CONSOLE'] = 'false';
        }
        (function (): void {
            $this->isRunningInConsole = null;
        })->call($app);
    }

    /**
     * The kernel's bootstrappers, with SetRequestForConsole before
     * RegisterProviders: providers that read the request while they
     * register find one.
     *
     * @return list<class-string>
     */
    private static function bootstrappers(Kernel $kernel): array
    {
        $bootstrappers = (fn (): array => $this->bootstrappers())->call($kernel);
        $at = array_search(RegisterProviders::class, $bootstrappers, true);
        if ($at !== false) {
            array_splice($bootstrappers, $at, 0, [SetRequestForConsole::class]);
        }

        return $bootstrappers;
    }
}
