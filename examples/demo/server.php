<?php

declare(strict_types=1);

/*
 * The demo app `make serve` runs: a JSON API over SQLite (embedded, no
 * server needed), served by Rapier\Http\Server on :8080.
 *
 *   GET /            {"time": <unix time>, "str": "hello"}
 *   GET /user/{id}   one user by id
 *   GET /users       10 random users
 *   GET /queries     100 queries in one request
 *
 * Options from the environment: RAPIER_DEMO_PORT (8080), RAPIER_DEMO_WORKERS
 * (CPU count), RAPIER_DEMO_DB (a SQLite file, created and seeded if missing).
 */

use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;

require __DIR__ . '/users.php';

$port = (int) (getenv('RAPIER_DEMO_PORT') ?: 8080);
$workers = getenv('RAPIER_DEMO_WORKERS');
$database = getenv('RAPIER_DEMO_DB') ?: sys_get_temp_dir() . '/rapier-demo.sqlite';

demo_seed_database($database, 10000);

$server = new Server('0.0.0.0', $port, [
    'workers' => $workers === false ? (int) shell_exec('nproc') : (int) $workers,
]);

$pdo = null;
$server->on('workerStart', function (Server $server, int $workerId) use (&$pdo, $database): void {
    // Each worker keeps its own connection and prepared statement for its whole life.
    $pdo = new PDO('sqlite:' . $database, options: [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
});

$server->on('request', function (Request $request, Response $response) use (&$pdo): void {
    $path = $request->path;
    if ($path === '/') {
        $response->json(['time' => time(), 'str' => 'hello']);
        return;
    }
    if (preg_match('#^/user/(\d+)$#', $path, $m)) {
        $user = demo_find_user($pdo, (int) $m[1]);
        $user === null ? $response->json(['error' => 'no such user'], 404) : $response->json($user);
        return;
    }
    if ($path === '/users') {
        $users = [];
        for ($i = 0; $i < 10; $i++) {
            $users[] = demo_find_user($pdo, random_int(1, 10000));
        }
        $response->json($users);
        return;
    }
    if ($path === '/queries') {
        $found = 0;
        for ($i = 0; $i < 100; $i++) {
            $found += demo_find_user($pdo, random_int(1, 10000)) === null ? 0 : 1;
        }
        $response->json(['queries' => 100, 'found' => $found]);
        return;
    }
    $response->json(['error' => 'not found', 'endpoints' => ['/', '/user/{id}', '/users', '/queries']], 404);
});

fwrite(STDERR, "Rapier demo on http://127.0.0.1:$port/ (Ctrl-C stops it)\n");
$server->start();
