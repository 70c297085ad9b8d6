<?php

/*
 * The benchmark endpoints in plain PHP, shared by the php-fpm front
 * controller (index.php beside this file) and the Rapier bench server
 * (bench/servers/rapier.php): both servers run exactly this code and answer
 * the same bytes, so only the way PHP is served differs.
 *
 *   /hello       {"time": <unix time>, "str": "hello"}
 *   /user/{id}   one user by primary key
 *   /users       10 users: one query, 10 consecutive rows from a random id
 *   /queries     100 queries in one request (one prepared statement, 100 random ids)
 *   /redis       one JSON user read from Redis (GET), sent as it is stored
 *   /slow        one SELECT SLEEP(0.01): a request that mostly waits
 *
 * Connections are made with the options Laravel's connector uses (native
 * prepares, no stringified fetches), so ids come back as ints and the JSON is
 * byte for byte what the Lumen app sends.
 */

declare(strict_types=1);

namespace Bench;

use PDO;
use PDOStatement;
use Redis;
use WeakMap;

final class Endpoints
{
    /** Rows in the users table (bench/lib/seed.php). */
    public const USERS = 10000;

    /** The Redis key holding one JSON user. */
    public const REDIS_KEY = 'bench:user:1';

    public const SLOW_SECONDS = 0.01;

    /** The same PDO everywhere: the options of every connection (mysqlDsn(), connectMysql()). */
    public const MYSQL_OPTIONS = [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC,
        PDO::ATTR_EMULATE_PREPARES => false,
        PDO::ATTR_STRINGIFY_FETCHES => false,
    ];

    private const COLUMNS = 'id, name, email, password, remember_token, created_at, updated_at';

    /**
     * The scenario a path asks for and the id it names (0 when none), or null
     * for a path that is none of the endpoints.
     *
     * @return array{string, int}|null
     */
    public static function route(string $path): ?array
    {
        return match (true) {
            in_array($path, ['/hello', '/users', '/queries', '/redis', '/slow'], true) => [substr($path, 1), 0],
            preg_match('#^/user/([1-9][0-9]{0,8})$#', $path, $m) === 1 => ['user', (int) $m[1]],
            default => null,
        };
    }

    /** @return array{time: int, str: string} */
    public static function hello(): array
    {
        return ['time' => time(), 'str' => 'hello'];
    }

    /**
     * A prepared statement, prepared once per connection and kept with it.
     * The same code everywhere: under php-fpm the cache lives one request
     * (PHP frees it, and a persistent connection drops its statements at
     * the end of the request), so every request prepares again; a resident
     * server keeps its pooled connections, and their statements, across
     * requests. That saves a round trip per query, one of the resident
     * server's real advantages.
     */
    private static function prepared(PDO $pdo, string $sql): PDOStatement
    {
        static $cache = null;
        $cache ??= new WeakMap();
        $statements = $cache[$pdo] ?? [];
        if (!isset($statements[$sql])) {
            $statements[$sql] = $pdo->prepare($sql);
            $cache[$pdo] = $statements;
        }

        return $statements[$sql];
    }

    /** @return array<string, int|string>|null */
    public static function user(PDO $pdo, int $id): ?array
    {
        $statement = self::prepared($pdo, 'SELECT ' . self::COLUMNS . ' FROM users WHERE id = ?');
        $statement->execute([$id]);
        $row = $statement->fetch();
        $statement->closeCursor();

        return $row === false ? null : $row;
    }

    /** @return list<array<string, int|string>> */
    public static function users(PDO $pdo): array
    {
        $statement = self::prepared($pdo, 'SELECT ' . self::COLUMNS . ' FROM users WHERE id >= ? ORDER BY id LIMIT 10');
        $statement->execute([mt_rand(1, self::USERS - 9)]);

        return $statement->fetchAll();
    }

    /** @return list<array<string, int|string>> */
    public static function queries(PDO $pdo): array
    {
        $statement = self::prepared($pdo, 'SELECT ' . self::COLUMNS . ' FROM users WHERE id = ?');
        $rows = [];
        for ($i = 0; $i < 100; $i++) {
            $statement->execute([mt_rand(1, self::USERS)]);
            $rows[] = $statement->fetch();
            $statement->closeCursor();
        }

        return $rows;
    }

    public static function redis(Redis $redis): string|false
    {
        return $redis->get(self::REDIS_KEY);
    }

    /** @return array{sleep: int} */
    public static function slow(PDO $pdo): array
    {
        $statement = self::prepared($pdo, 'SELECT SLEEP(' . self::SLOW_SECONDS . ')');
        $statement->execute();
        $value = $statement->fetchColumn();
        $statement->closeCursor();

        return ['sleep' => (int) $value];
    }

    public static function connectMysql(bool $persistent): PDO
    {
        return new PDO(self::mysqlDsn(), self::env('BENCH_MYSQL_USER'), self::env('BENCH_MYSQL_PASSWORD'),
            [PDO::ATTR_PERSISTENT => $persistent] + self::MYSQL_OPTIONS);
    }

    public static function mysqlDsn(): string
    {
        return sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4',
            self::env('BENCH_MYSQL_HOST'), (int) self::env('BENCH_MYSQL_PORT'), self::env('BENCH_MYSQL_DATABASE'));
    }

    public static function connectRedis(bool $persistent): Redis
    {
        $redis = new Redis();
        $host = self::env('BENCH_REDIS_HOST');
        $port = (int) self::env('BENCH_REDIS_PORT');
        $persistent ? $redis->pconnect($host, $port) : $redis->connect($host, $port);

        return $redis;
    }

    public static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            throw new \RuntimeException("$name is not set: run the benchmark with bench/run.sh");
        }

        return $value;
    }
}
