<?php

/*
 * The benchmark endpoints (see bench/apps/plain/Endpoints.php for what each
 * one answers), through Lumen's router, query builder and Redis manager.
 */

declare(strict_types=1);

use Illuminate\Support\Facades\DB;

/** @var Laravel\Lumen\Routing\Router $router */

$userCount = 10000;
$select = 'SELECT id, name, email, password, remember_token, created_at, updated_at FROM users';

$router->get('/hello', fn () => response()->json(['time' => time(), 'str' => 'hello']));

$router->get('/user/{id:[1-9][0-9]{0,8}}', function (string $id) use ($select) {
    $user = DB::selectOne("$select WHERE id = ?", [(int) $id]);

    return $user === null ? response()->json(['error' => 'not found'], 404) : response()->json($user);
});

$router->get('/users', fn () => response()->json(
    DB::select("$select WHERE id >= ? ORDER BY id LIMIT 10", [mt_rand(1, $userCount - 9)])
));

$router->get('/queries', function () use ($select, $userCount) {
    $users = [];
    for ($i = 0; $i < 100; $i++) {
        $users[] = DB::selectOne("$select WHERE id = ?", [mt_rand(1, $userCount)]);
    }

    return response()->json($users);
});

$router->get('/redis', fn () => response(app('redis')->get('bench:user:1'), 200, ['Content-Type' => 'application/json']));

$router->get('/slow', fn () => response()->json(['sleep' => (int) DB::selectOne('SELECT SLEEP(0.01) AS s')->s]));
