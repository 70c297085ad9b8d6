<?php

declare(strict_types=1);

namespace Rapier\Adapter;

/**
 * What `rapier serve` runs in each worker: the application behind one
 * object, booted once per worker process and asked to serve each request.
 */
interface Adapter
{
    /** Once per worker process, after fork and before the first request (boot the app here). */
    public function boot(): void;

    /** Serves one request; leaves no state behind for the next one. */
    public function handle(\Rapier\Http\Request $request, \Rapier\Http\Response $response): void;
}
