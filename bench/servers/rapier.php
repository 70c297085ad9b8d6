<?php

/*
 * The Rapier bench server: the endpoints of bench/apps/plain/Endpoints.php
 * served by Rapier\Http\Server. bench/run.sh starts it twice: with
 * coroutines (every request in its own coroutine, MySQL and Redis from a
 * per-worker Rapier\Pool, as an application would; as many requests at
 * once as the pool has connections, since more would only wait for one) and
 * with 'concurrency' => 1 (one request at a time per worker, the blocking
 * model of Laravel Octane and friends). Either way a request that waits
 * queue_timeout for its turn is refused with a 503, as a loaded production
 * server should. The coroutine server runs once more over HTTPS (run.sh's
 * rapier-tls; the TLS options are in options.php).
 *
 * Environment: BENCH_PORT, BENCH_RAPIER_POOL (connections per worker and
 * service, 100), the server's options (options.php; as many requests at
 * once as the pool has connections unless told), and the BENCH_MYSQL_* /
 * BENCH_REDIS_* variables Endpoints reads.
 */

declare(strict_types=1);

use Bench\Endpoints;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;
use Rapier\Pool\PdoPool;
use Rapier\Pool\PoolOptions;
use Rapier\Pool\RedisPool;

require __DIR__ . '/../apps/plain/Endpoints.php';
require __DIR__ . '/options.php';
require dirname(__DIR__, 2) . '/src/autoload.php';

$poolSize = bench_int_env('BENCH_RAPIER_POOL', 100);
// Concurrency: the pool's size unless told; a further request could only wait for a connection.
$server = new Server('127.0.0.1', (int) Endpoints::env('BENCH_PORT'), bench_server_options($poolSize));

// Pools are made per worker (after fork): a connection must not be shared
// between processes. A request waits for a connection as long as it takes:
// the server's queue_timeout is what refuses work under overload. Idle
// connections stay open (idleTimeout null): Endpoints keeps each
// connection's prepared statements, and a statement keeps its PDO, so a
// connection the pool closed would live on in this process (its MariaDB
// session is killed, docs/pools.md).
$mysql = $redis = null;
$server->on('workerStart', function () use (&$mysql, &$redis, $poolSize): void {
    $options = new PoolOptions(max: $poolSize, waitTimeout: -1, idleTimeout: null);
    $mysql = new PdoPool(Endpoints::mysqlDsn(), Endpoints::env('BENCH_MYSQL_USER'), Endpoints::env('BENCH_MYSQL_PASSWORD'),
        Endpoints::MYSQL_OPTIONS, $options);
    $redis = new RedisPool(Endpoints::env('BENCH_REDIS_HOST'), (int) Endpoints::env('BENCH_REDIS_PORT'), options: $options);
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
        'user' => $mysql->use(static fn (PDO $pdo): ?array => Endpoints::user($pdo, $id)),
        'users' => $mysql->use(Endpoints::users(...)),
        'queries' => $mysql->use(Endpoints::queries(...)),
        'redis' => $redis->use(Endpoints::redis(...)),
        'slow' => $mysql->use(Endpoints::slow(...)),
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
