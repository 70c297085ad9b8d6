<?php

/*
 * Connections from the benchmark's environment (bench/run.sh). Persistent
 * connections when BENCH_PERSISTENT=1, as for the plain app under php-fpm:
 * each php-fpm child then keeps its connections between requests.
 */

declare(strict_types=1);

$persistent = getenv('BENCH_PERSISTENT') === '1';

return [
    'default' => 'mysql',
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => getenv('BENCH_MYSQL_HOST'),
            'port' => getenv('BENCH_MYSQL_PORT'),
            'database' => getenv('BENCH_MYSQL_DATABASE'),
            'username' => getenv('BENCH_MYSQL_USER'),
            'password' => getenv('BENCH_MYSQL_PASSWORD'),
            'charset' => 'utf8mb4',
            'collation' => 'utf8mb4_unicode_ci',
            'prefix' => '',
            'strict' => true,
            'options' => [PDO::ATTR_PERSISTENT => $persistent],
        ],
    ],
    'redis' => [
        'client' => 'phpredis',
        'default' => [
            'host' => getenv('BENCH_REDIS_HOST'),
            'port' => (int) getenv('BENCH_REDIS_PORT'),
            'database' => 0,
            'persistent' => $persistent,
        ],
    ],
];
