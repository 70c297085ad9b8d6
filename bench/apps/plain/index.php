<?php

/*
 * The php-fpm front controller of the plain-PHP benchmark app: every request
 * reaches this file through nginx (SCRIPT_FILENAME), as on a classic
 * deployment. Connections are persistent (PDO::ATTR_PERSISTENT, phpredis
 * pconnect) so each php-fpm child keeps its own between requests: php-fpm's
 * best case, since a connect and MySQL handshake per request would cost
 * more than the query.
 */

declare(strict_types=1);

use Bench\Endpoints;

require __DIR__ . '/Endpoints.php';

$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
$route = is_string($path) ? Endpoints::route($path) : null;
if ($route === null) {
    http_response_code(404);
    header('Content-Type: application/json');
    echo '{"error":"not found"}';
    return;
}

[$scenario, $id] = $route;
$body = match ($scenario) {
    'hello' => Endpoints::hello(),
    'user' => Endpoints::user(Endpoints::connectMysql(true), $id),
    'users' => Endpoints::users(Endpoints::connectMysql(true)),
    'queries' => Endpoints::queries(Endpoints::connectMysql(true)),
    'redis' => Endpoints::redis(Endpoints::connectRedis(true)),
    'slow' => Endpoints::slow(Endpoints::connectMysql(true)),
};

header('Content-Type: application/json');
if ($body === null || $body === false) {
    http_response_code(404);
    echo '{"error":"not found"}';
} elseif (is_string($body)) {
    echo $body;
} else {
    echo json_encode($body, JSON_THROW_ON_ERROR);
}
