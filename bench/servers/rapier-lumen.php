<?php

/*
 * Lumen on Rapier: the bench's Lumen app (bench/apps/lumen) served through
 * the framework adapter of issue 4. bench/run.sh starts this only once
 * src/Adapter/LumenAdapter.php exists.
 *
 * What it expects of that adapter (src/Adapter/Adapter.php):
 *   - Rapier\Adapter\LumenAdapter implements Rapier\Adapter\Adapter;
 *   - new LumenAdapter(Laravel\Lumen\Application $app), the application
 *     that bench/apps/lumen/bootstrap/app.php returns;
 *   - boot() once per worker, then handle(Request, Response) runs one
 *     request through the booted app and ends the Response with the app's
 *     status, headers and body, leaving no request state behind.
 * The application is required in each worker, after fork, so no object or
 * connection of it is ever shared between processes.
 *
 * Environment: as bench/servers/rapier.php. BENCH_RAPIER_CONCURRENCY is 1
 * by default for this server (set by run.sh): a Lumen app keeps one database
 * connection per process, which concurrent coroutines must not share, so
 * the blocking one-request-at-a-time mode is what an unmodified app can run.
 */

declare(strict_types=1);

use Rapier\Adapter\LumenAdapter;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;

require dirname(__DIR__, 2) . '/src/autoload.php';
require __DIR__ . '/options.php';

$server = new Server('127.0.0.1', bench_int_env('BENCH_PORT', 8080), bench_server_options(1));

$adapter = null;
$server->on('workerStart', static function () use (&$adapter): void {
    $adapter = new LumenAdapter(require dirname(__DIR__) . '/apps/lumen/bootstrap/app.php');
    $adapter->boot();
});
$server->on('request', static function (Request $request, Response $response) use (&$adapter): void {
    $adapter->handle($request, $response);
});

$server->start();
