<?php

declare(strict_types=1);

namespace Rapier\Adapter;

use Pimple\Container as PimpleContainer;
use Rapier\Adapter\Internal\ObjectState;
use Rapier\Adapter\Internal\Psr7ResponseSender;
use Rapier\Adapter\Internal\RequestScope;
use Rapier\Adapter\Internal\SlimRequestFactory;
use Rapier\Exception;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Slim\App;
use Slim\Http\Environment;
use Slim\Interfaces\RouteInterface;

/**
 * Serves a Slim 3 application (a Slim\App over its default Pimple-based
 * Slim\Container) built once per worker.
 *
 * Each request runs App::run() in its silent mode, which is exactly what
 * index.php does under php-fpm minus the sending: the container's
 * `environment` and `request` are this request's, `response` a fresh one;
 * echoed output lands in the body as the outputBuffering setting says.
 *
 * Afterwards the container goes back to its state at boot (a service first
 * resolved by the request is resolved again next time; a value the request
 * set is gone), the settings too, and every route's arguments: Slim 3's
 * Route::prepare() merges a request's arguments into the route object, so an
 * optional argument of one request would otherwise show up in the next.
 *
 * $basePath is the app's directory: classes declared under it (not under
 * its vendor/) get their static properties reset after each request.
 */
final class SlimAdapter implements Adapter
{
    /** Stateless default services, resolved at boot rather than by every request. */
    private const WARM = [
        'settings', 'router', 'callableResolver', 'foundHandler',
        'errorHandler', 'phpErrorHandler', 'notFoundHandler', 'notAllowedHandler',
    ];

    private readonly PimpleContainer $container;

    private readonly RequestScope $scope;

    /** @var list<ObjectState> */
    private array $states = [];

    /** @var list<array{RouteInterface, array<string, string>}> */
    private array $routes = [];

    public function __construct(private readonly App $app, ?string $basePath = null)
    {
        $container = $app->getContainer();
        if (!$container instanceof PimpleContainer) {
            throw new Exception('Cannot serve a Slim app whose container is not a Slim\Container (Pimple): its per-request services could not be replaced');
        }
        $this->container = $container;
        $this->scope = $basePath === null
            ? new RequestScope()
            : new RequestScope(self::frontController($basePath), [$basePath], [$basePath . '/vendor']);
    }

    public function boot(): void
    {
        foreach (self::WARM as $id) {
            if ($this->container->offsetExists($id)) {
                $this->container->offsetGet($id);
            }
        }
        $this->states = [ObjectState::capture($this->container)];
        if ($this->container->offsetExists('settings')) {
            $this->states[] = ObjectState::capture($this->container['settings']);
        }
        $this->captureRoutes();
        $this->scope->capture();
    }

    public function handle(Request $request, Response $response): void
    {
        $this->scope->run($request, $response, function (array $server) use ($request, $response): void {
            $environment = new Environment($server);
            $slimRequest = SlimRequestFactory::create($environment, $request);
            $this->replace('environment', $environment);
            $this->replace('request', $slimRequest);
            $slimResponse = $this->app->run(true);
            // As php-fpm does when the script ends, and before the client can
            // come back with the session cookie: the session is written.
            if (session_status() === PHP_SESSION_ACTIVE) {
                session_write_close();
            }
            Psr7ResponseSender::send($slimResponse, $response, $this->scope->output);
        }, $this->reset(...));
    }

    private function captureRoutes(): void
    {
        $router = $this->container->offsetExists('router') ? $this->container['router'] : null;
        if (!is_object($router) || !method_exists($router, 'getRoutes')) {
            return;
        }
        foreach ($router->getRoutes() as $route) {
            $this->routes[] = [$route, $route->getArguments()];
        }
    }

    private function replace(string $id, object $value): void
    {
        // A resolved Pimple service is frozen: it must be removed to be set.
        $this->container->offsetUnset($id);
        $this->container->offsetSet($id, $value);
    }

    private function reset(): void
    {
        foreach ($this->states as $state) {
            $state->restore();
        }
        foreach ($this->routes as [$route, $arguments]) {
            $route->setArguments($arguments);
        }
    }

    private static function frontController(string $basePath): string
    {
        return rtrim($basePath, '/') . '/public/index.php';
    }
}
