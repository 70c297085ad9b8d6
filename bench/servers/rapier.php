<?php

/*
 * The Rapier bench server: the endpoints of bench/apps/plain/Endpoints.php
 * served by Rapier\Http\Server. bench/run.sh starts it twice: with
 * coroutines (every request in its own coroutine, MySQL and Redis from a
 * per-worker pool; as many requests at once as the pool has connections,
 * since more would only wait for one) and with 'concurrency' => 1 (one
 * request at a time per worker, the blocking model of Laravel Octane and
 * friends). Either way a request that waits queue_timeout for its turn is
 * refused with a 503, as a loaded production server should.
 *
 * Environment: BENCH_PORT, BENCH_RAPIER_POOL (connections per worker and
 * service, 100), the server's options (options.php; as many requests at
 * once as the pool has connections unless told), and the BENCH_MYSQL_* / BENCH_REDIS_* variables Endpoints
 * reads.
 */

declare(strict_types=1);

use Bench\ConnectionPool;
use Bench\Endpoints;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;

require __DIR__ . '/../apps/plain/Endpoints.php';
require __DIR__ . '/ConnectionPool.php';
require __DIR__ . '/options.php';

$poolSize = bench_int_env('BENCH_RAPIER_POOL', 100);
// Concurrency: the pool's size unless told; a further request could only wait for a connection.
$server = new Server('127.0.0.1', (int) Endpoints::env('BENCH_PORT'), bench_server_options($poolSize));

// Pools are made per worker (after fork): a connection must not be shared
// between processes.
$mysql = $redis = null;
$server->on('workerStart', function () use (&$mysql, &$redis, $poolSize): void {
    $mysql = new ConnectionPool(static fn (): PDO => Endpoints::connectMysql(false), $poolSize);
    $redis = new ConnectionPool(static fn (): Redis => Endpoints::connectRedis(false), $poolSize);
});

$server->on('request', function (Request $request, Response $response) use (&$mysql, &$redis): void {
    $route = Endpoints::route($request->path);
    if ($route === null) {
        $response->json(['error' => 'not found'], 404);
        return;
    }
    [$scenario, $id] = $route;
    $body = match ($scenario) {
        'hello' => Endpoints::hello(),
        'user' => $mysql->with(static fn (PDO $pdo): ?array => Endpoints::user($pdo, $id)),
        'users' => $mysql->with(Endpoints::users(...)),
        'queries' => $mysql->with(Endpoints::queries(...)),
        'redis' => $redis->with(Endpoints::redis(...)),
        'slow' => $mysql->with(Endpoints::slow(...)),
    };
    if ($body === null || $body === false) {
        $response->json(['error' => 'not found'], 404);
    } elseif (is_string($body)) {
        $response->header('Content-Type', 'application/json')->end($body);
    } else {
        $response->json($body);
    }
});

$server->start();
