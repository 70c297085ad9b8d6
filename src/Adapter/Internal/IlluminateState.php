<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Carbon\Carbon;
use Illuminate\Container\Container;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Support\Facades\Facade;
use Illuminate\Support\Str;
use ReflectionProperty;
use Throwable;

/**
 * Returns a Laravel or Lumen application to its state at boot after each
 * request, the job Laravel Octane's listeners do.
 *
 * Octane serves each request from a clone of the application and then
 * points every long-lived service at the clone. Here the application is
 * not cloned: the container's own arrays (instances, bindings, aliases,
 * resolving callbacks...) are put back as they were at boot, and so are the
 * properties of the services that hold per-request state, on the same
 * objects. After a request, then:
 * - a singleton first resolved during the request is gone (resolved again
 *   by the next request that needs it), and an instance() or binding the
 *   request added or replaced is undone; the request instance is the boot
 *   one again until the kernel sets the next;
 * - config is the boot config; the auth manager has no guards (no cached
 *   user), the session manager no session store, the cookie jar no queued
 *   cookie; events, router, URL generator and view factory lose what the
 *   request added (listeners, forced root URL, shared view data);
 * - database connections stay open, with an unfinished transaction rolled
 *   back (php-fpm would have closed the connection, which rolls back), the
 *   query log and the "records modified" flag cleared;
 * - the locale, log context, the array cache store, Blade's compiled-path
 *   bookkeeping, Str's caches and the facades' resolved instances are reset.
 *
 * The services worth keeping are resolved at boot (warmed), as Octane does,
 * so that requests do not build them again. `redirect` and `session.store`
 * are not: they capture the session store of the moment they are built.
 *
 * @internal
 */
final class IlluminateState
{
    /** Resolved at boot if bound; Octane's default list, without session.store. */
    private const WARM = [
        'auth', 'cache', 'cache.store', 'config', 'cookie', 'db', 'db.factory', 'encrypter',
        'files', 'hash', 'log', 'router', 'routes', 'session', 'translator', 'url', 'view',
    ];

    /** Services whose properties go back to their boot values after each request. */
    private const ROLLED_BACK = ['config', 'events', 'router', 'url', 'view', 'auth', 'cookie', 'session'];

    /**
     * Eloquent's statics that record which models booted (and what their
     * boot added), and Model::unguard(). A model's boot registers its event
     * listeners, which go with the event dispatcher's rollback; its "booted"
     * mark must go too, or a model first used by a request never boots
     * again and loses its listeners from the second request on.
     */
    private const ELOQUENT_STATICS = ['booted', 'globalScopes', 'traitInitializers', 'unguarded'];

    /** @var list<ObjectState> */
    private array $states = [];

    /** @var array<string, mixed> ELOQUENT_STATICS as they were at boot, when Eloquent was loaded */
    private array $eloquent = [];

    private string $locale = '';

    private string $carbonLocale = '';

    /**
     * The services reset() works on, found at capture(). After the states
     * are put back, what is resolved is what was resolved at boot, so these
     * are the same objects every request; a service a request resolves for
     * the first time is dropped with the container's instances instead.
     */
    private ?object $db = null;

    private ?object $translator = null;

    private ?object $log = null;

    private ?object $arrayCache = null;

    private ?object $viewEngines = null;

    public function __construct(private readonly Container $app)
    {
    }

    /** @param list<object> $others further objects to roll back (the HTTP kernel, Lumen's router) */
    public function capture(array $others = []): void
    {
        $this->warm();
        $this->states = [ObjectState::capture($this->app)];
        foreach (self::ROLLED_BACK as $id) {
            if ($this->app->resolved($id)) {
                $this->states[] = ObjectState::capture($this->app->make($id));
            }
        }
        foreach ($others as $object) {
            $this->states[] = ObjectState::capture($object);
        }
        $this->captureEloquent();
        if ($this->app->resolved('config')) {
            $this->locale = (string) $this->app->make('config')->get('app.locale', '');
        }
        if (class_exists(Carbon::class)) {
            $this->carbonLocale = Carbon::getLocale();
        }
        $this->db = $this->resolvedOrNull('db');
        $this->translator = $this->resolvedOrNull('translator');
        $this->log = $this->resolvedOrNull('log');
        $this->viewEngines = $this->resolvedOrNull('view.engine.resolver');
        if ($this->app->resolved('cache') && $this->app->make('config')->get('cache.stores.array')) {
            $this->arrayCache = $this->app->make('cache')->store('array');
        }
    }

    public function reset(): void
    {
        foreach ($this->states as $state) {
            $state->restore();
        }
        $this->resetEloquent();
        $this->resetDatabase();
        $this->resetLocale();
        $this->resetLogContext();
        $this->resetCaches();
        Facade::clearResolvedInstances();
    }

    /**
     * Resolves the common services. Lumen registers most of them only when
     * first made (its availableBindings). Warming is an optimization: a
     * service that cannot be built now fails again, with the same error,
     * in the request that needs it.
     */
    private function warm(): void
    {
        $lazy = property_exists($this->app, 'availableBindings') ? $this->app->availableBindings : [];
        foreach (self::WARM as $id) {
            if (!$this->app->bound($id) && !isset($lazy[$id])) {
                continue;
            }
            try {
                $this->app->make($id);
            } catch (Throwable) {
                // Not buildable yet (missing config): see above.
            }
        }
    }

    /**
     * Eloquent's statics at boot. Loads Model if the application has
     * Eloquent but has not used it yet: one class, and then a request that
     * first uses it is reset like any other.
     */
    private function captureEloquent(): void
    {
        if (!class_exists(Model::class)) {
            return;
        }
        foreach (self::ELOQUENT_STATICS as $name) {
            if (property_exists(Model::class, $name)) {
                $this->eloquent[$name] = (new ReflectionProperty(Model::class, $name))->getValue();
            }
        }
    }

    private function resetEloquent(): void
    {
        foreach ($this->eloquent as $name => $value) {
            (new ReflectionProperty(Model::class, $name))->setValue(null, $value);
        }
    }

    private function resolvedOrNull(string $id): ?object
    {
        return $this->app->resolved($id) ? $this->app->make($id) : null;
    }

    private function resetDatabase(): void
    {
        if ($this->db === null) {
            return;
        }
        foreach ($this->db->getConnections() as $connection) {
            try {
                if ($connection->transactionLevel() > 0) {
                    $connection->rollBack(0);
                }
            } catch (Throwable) {
                // A connection that died mid-transaction: the server rolled
                // back already, and Laravel reconnects on the next query.
            }
            $connection->forgetRecordModificationState();
            $connection->flushQueryLog();
        }
    }

    private function resetLocale(): void
    {
        if ($this->translator !== null && $this->translator->getLocale() !== $this->locale) {
            $this->translator->setLocale($this->locale);
        }
        if ($this->carbonLocale !== '' && Carbon::getLocale() !== $this->carbonLocale) {
            Carbon::setLocale($this->carbonLocale);
        }
    }

    private function resetLogContext(): void
    {
        if ($this->log === null) {
            return;
        }
        foreach ($this->log->getChannels() as $logger) {
            if (method_exists($logger, 'withoutContext')) {
                $logger->withoutContext();
            }
        }
    }

    private function resetCaches(): void
    {
        $this->arrayCache?->flush();
        // The compiler engines keep a stack of the views being rendered,
        // which an exception in a view leaves unpopped.
        if ($this->viewEngines !== null) {
            $this->viewEngines->forget('blade');
            $this->viewEngines->forget('php');
        }
        Str::flushCache();
    }
}
