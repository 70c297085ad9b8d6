<?php

declare(strict_types=1);

namespace Rapier\Pool;

use PDO;

/**
 * A Pool of PDO connections (see PdoConnector for the health check and
 * what happens to a connection that comes back).
 *
 *     $pool = new PdoPool('mysql:host=127.0.0.1;dbname=app', 'app', 'secret', [], new PoolOptions(max: 20));
 *     $rows = $pool->use(fn (PDO $db) => $db->query('SELECT * FROM users')->fetchAll());
 */
final class PdoPool extends Pool
{
    /** @param array<int, mixed> $pdoOptions passed to every new PDO */
    public function __construct(
        string $dsn,
        ?string $username = null,
        #[\SensitiveParameter] ?string $password = null,
        array $pdoOptions = [],
        ?PoolOptions $options = null,
    ) {
        parent::__construct(new PdoConnector($dsn, $username, $password, $pdoOptions), $options);
    }

    public function get(?float $timeout = null): PDO
    {
        $pdo = parent::get($timeout);
        assert($pdo instanceof PDO);

        return $pdo;
    }
}
