<?php

declare(strict_types=1);

namespace Rapier\Pool;

use PDO;
use PDOException;
use Rapier\Coroutine;
use Rapier\Timer;
use Throwable;
use ValueError;
use WeakReference;

/**
 * PDO connections for a Pool. The health check is `SELECT 1`; a connection
 * comes back reusable unless it reports a lost link (MySQL/MariaDB error
 * codes below, or any SQLSTATE of class 08), and an open transaction is
 * rolled back first. Messages show the DSN without user or password.
 *
 * PDO has no close(): its link ends with its last reference. The pool drops
 * its own when it closes a connection, but anything else may still hold the
 * PDO (a statement does, so a statement cache does), and the session would
 * stay open in the server for as long as that lasts. So a PDO still alive
 * once the pool has let go of it ends its own session: MySQL and MariaDB
 * get `KILL CONNECTION_ID()`. The check runs in a coroutine of its own on
 * the next turn of the event loop, when the pool's stack frames are gone;
 * a PDO with no other holder has closed by then with a plain COM_QUIT.
 */
final class PdoConnector implements Connector
{
    /**
     * Driver error codes after which a MySQL/MariaDB connection is unusable:
     * 2002/2003 cannot connect, 2006 server gone away, 2013 and 2055 lost
     * during a query, 2014 commands out of sync, 1053 server shutting down,
     * 1927 connection killed (MariaDB), 4031 closed for inactivity (MySQL 8).
     */
    private const LOST_CONNECTION_CODES = [1053, 1927, 2002, 2003, 2006, 2013, 2014, 2055, 4031];

    /** DSN keys that may carry credentials (PDO_MYSQL accepts both in the DSN). */
    private const SECRET_DSN_KEYS = ['user', 'password'];

    /** What a PDO that outlives its close() runs to end its session, per driver. */
    private const END_SESSION = ['mysql' => 'KILL CONNECTION_ID()'];

    /** @var list<WeakReference<PDO>> closed by the pool, to check on the next loop turn */
    private array $closing = [];

    /**
     * @param array<int, mixed> $options PDO constructor options
     *
     * @throws ValueError when $options ask for a persistent connection
     */
    public function __construct(
        private readonly string $dsn,
        private readonly ?string $username = null,
        #[\SensitiveParameter] private readonly ?string $password = null,
        private readonly array $options = [],
    ) {
        // A persistent PDO is one shared connection per process: pooling it
        // would lend the same link to several coroutines at once.
        if (!empty($options[PDO::ATTR_PERSISTENT])) {
            throw new ValueError(self::class . '::__construct(): Argument #4 ($options) must not enable PDO::ATTR_PERSISTENT: the pool keeps connections open itself');
        }
    }

    public function connect(): PDO
    {
        try {
            return new PDO($this->dsn, $this->username, $this->password, $this->options);
        } catch (PDOException $e) {
            // PDO's trace hides its password argument (#[SensitiveParameter]) but
            // not the DSN: chain it only when the DSN holds no secret either.
            $description = $this->describe();
            throw new ConnectionException(
                sprintf('Cannot connect to %s: %s', $description, $e->getMessage()),
                (int) ($e->errorInfo[1] ?? 0),
                $description === $this->dsn ? $e : null,
            );
        }
    }

    public function check(object $connection): bool
    {
        assert($connection instanceof PDO);
        try {
            return $connection->query('SELECT 1') !== false;
        } catch (PDOException) {
            return false;
        }
    }

    public function reset(object $connection, ?Throwable $error): bool
    {
        assert($connection instanceof PDO);
        if ($error instanceof PDOException && self::isLost($error->errorInfo)) {
            return false;
        }
        if (self::isLost($connection->errorInfo())) {
            return false;
        }
        if (!$connection->inTransaction()) {
            return true;
        }
        try {
            return $connection->rollBack();
        } catch (PDOException) {
            return false;
        }
    }

    public function close(object $connection): void
    {
        assert($connection instanceof PDO);
        if (!isset(self::END_SESSION[$connection->getAttribute(PDO::ATTR_DRIVER_NAME)]) || Coroutine::id() < 0) {
            // Outside the event loop there is no later turn to check on; the last reference closes it.
            return;
        }
        $this->closing[] = WeakReference::create($connection);
        if (count($this->closing) === 1) {
            Timer::after(0, $this->endLingeringSessions(...));
        }
    }

    public function describe(): string
    {
        [$driver, $rest] = explode(':', $this->dsn, 2) + [1 => ''];
        $kept = [];
        foreach (explode(';', $rest) as $pair) {
            $key = strtolower(trim(explode('=', $pair, 2)[0]));
            if ($pair !== '' && !in_array($key, self::SECRET_DSN_KEYS, true)) {
                $kept[] = $pair;
            }
        }

        return $driver . ':' . implode(';', $kept);
    }

    /** Ends the session of each PDO closed by the pool that something else still holds. */
    private function endLingeringSessions(): void
    {
        [$closing, $this->closing] = [$this->closing, []];
        foreach ($closing as $reference) {
            $pdo = $reference->get();
            if ($pdo === null) {
                continue;
            }
            try {
                // Exceptions, so that a PDO in silent or warning mode says nothing either way.
                $pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
                $pdo->exec(self::END_SESSION[$pdo->getAttribute(PDO::ATTR_DRIVER_NAME)]);
            } catch (PDOException) {
                // 1927 "Connection was killed" is the expected answer; a link already lost is ended too.
            }
        }
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return ['dsn' => $this->describe(), 'username' => $this->username, 'options' => $this->options];
    }

    /** @param array<int, mixed>|null $errorInfo as PDO::errorInfo() or PDOException::$errorInfo */
    public static function isLost(?array $errorInfo): bool
    {
        if ($errorInfo === null) {
            return false;
        }

        return in_array($errorInfo[1] ?? null, self::LOST_CONNECTION_CODES, true)
            || str_starts_with((string) ($errorInfo[0] ?? ''), '08');
    }
}
