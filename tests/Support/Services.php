<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use mysqli;
use PDO;
use PHPUnit\Framework\SkippedTestError;
use Redis;

/**
 * Connections to the throwaway MariaDB and Redis that scripts/services.sh
 * starts for the suite; it exports where they listen as RAPIER_TEST_* vars.
 */
final class Services
{
    public static function mysqlDsn(): string
    {
        return self::env('RAPIER_TEST_MYSQL_DSN');
    }

    public static function mysqlUser(): string
    {
        return self::env('RAPIER_TEST_MYSQL_USER');
    }

    public static function mysqlPassword(): string
    {
        return self::env('RAPIER_TEST_MYSQL_PASSWORD');
    }

    /** @param array<int, mixed> $options */
    public static function pdo(array $options = []): PDO
    {
        $options += [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];

        return new PDO(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), $options);
    }

    public static function mysqli(): mysqli
    {
        mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);

        return new mysqli(
            self::env('RAPIER_TEST_MYSQL_HOST'),
            self::mysqlUser(),
            self::mysqlPassword(),
            self::env('RAPIER_TEST_MYSQL_DATABASE'),
            (int) self::env('RAPIER_TEST_MYSQL_PORT'),
        );
    }

    public static function redisPort(): int
    {
        return (int) self::env('RAPIER_TEST_REDIS_PORT');
    }

    /** The Unix socket the suite's Redis also listens on. */
    public static function redisSocket(): string
    {
        return self::env('RAPIER_TEST_REDIS_SOCKET');
    }

    public static function redis(): Redis
    {
        $redis = new Redis();
        $redis->connect('127.0.0.1', self::redisPort());

        return $redis;
    }

    private static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            throw new SkippedTestError("$name is not set: run the suite with `make phpunit`, which starts MariaDB and Redis");
        }

        return $value;
    }
}
