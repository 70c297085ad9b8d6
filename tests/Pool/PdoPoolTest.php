<?php

declare(strict_types=1);

namespace Rapier\Tests\Pool;

use PDO;
use PDOException;
use PHPUnit\Framework\TestCase;
use Rapier\Coroutine;
use Rapier\Pool\ConnectionException;
use Rapier\Pool\PdoPool;
use Rapier\Pool\PoolOptions;
use Rapier\Tests\Support\Services;
use Rapier\WaitGroup;

use function Rapier\go;
use function Rapier\run;

/**
 * PdoPool against the suite's MariaDB: how many connections the server
 * sees, idle connections closing, killed connections replaced, transactions
 * rolled back on return, broken connections never lent again. The server
 * side is observed through information_schema.PROCESSLIST from a connection
 * of the test's own.
 */
final class PdoPoolTest extends TestCase
{
    public function testFiftyCoroutinesThroughFiveConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 5));
        // One observer throughout: a connection opened just to list the
        // others and closed again can still be listed (its close reaches
        // the server later) and would be counted as one of the pool's.
        $observer = Services::pdo();
        $before = $this->serverConnectionIds($observer);
        $peak = 0;

        $ids = run(function () use ($pool, $observer, $before, &$peak): array {
            $ids = [];
            $workers = new WaitGroup();
            $workers->add(50);
            $observing = true;
            go(function () use ($observer, $before, &$observing, &$peak): void {
                while ($observing) {
                    $peak = max($peak, count(array_diff($this->serverConnectionIds($observer), $before)));
                    Coroutine::sleep(0.005);
                }
            });
            for ($i = 0; $i < 50; $i++) {
                go(function () use ($pool, $workers, $i, &$ids): void {
                    $ids[$i] = $pool->use(fn (PDO $db) => (int) $db->query('SELECT CONNECTION_ID(), SLEEP(0.02)')->fetchColumn());
                    $workers->done();
                });
            }
            $workers->wait();
            $observing = false;

            return $ids;
        });

        $this->assertCount(50, $ids);
        $this->assertCount(5, array_unique($ids));
        // The observer's own connection is not counted; the pool's five are.
        $this->assertSame(5, $peak);
        $this->assertSame(['open' => 5, 'idle' => 5, 'in_use' => 0, 'waiting' => 0], array_slice($pool->stats(), 0, 4));
    }

    public function testIdleTimeoutClosesServerConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 4, min: 1, idleTimeout: 0.1, checkAfterIdle: 60));

        [$ids, $reaped] = run(function () use ($pool): array {
            $ids = [];
            $opened = new WaitGroup();
            $opened->add(4);
            for ($i = 0; $i < 4; $i++) {
                go(function () use ($pool, $opened, &$ids): void {
                    $ids[] = $pool->use(fn (PDO $db) => (int) $db->query('SELECT CONNECTION_ID(), SLEEP(0.05)')->fetchColumn());
                    $opened->done();
                });
            }
            $opened->wait();
            Coroutine::sleep(0.2);

            return [$ids, $pool->reap()];
        });

        $this->assertSame(3, $reaped);
        $this->assertCount(4, array_unique($ids));
        // The server sees the three close (a closed client's thread ends a moment later).
        $left = $this->eventually(fn (): array => array_intersect($ids, $this->serverConnectionIds()), fn (array $left) => count($left) === 1);
        $this->assertCount(1, $left);
        $this->assertSame(1, $pool->stats()['open']);
    }

    /**
     * A statement cache keeps the PDO of every statement alive: a connection
     * the pool closes must still end in the server (it is asked to KILL its
     * own session), while one nobody else holds closes plainly, unkilled.
     */
    public function testClosedConnectionEndsInTheServerEvenWhileAStatementHoldsIt(): void
    {
        $pool = $this->pool(new PoolOptions(max: 2, idleTimeout: 0.05, checkAfterIdle: 60));
        $observer = Services::pdo();
        $cache = [];
        $kills = $this->abortedClients($observer);

        [$held, $free] = run(function () use ($pool, &$cache): array {
            $statementHolder = $pool->get();
            $other = $pool->get();
            $cache[] = $statementHolder->prepare('SELECT CONNECTION_ID()');
            $cache[0]->execute();
            $ids = [(int) $cache[0]->fetchColumn(), (int) $other->query('SELECT CONNECTION_ID()')->fetchColumn()];
            $pool->put($statementHolder);
            $pool->put($other);
            unset($statementHolder, $other);
            Coroutine::sleep(0.1);
            $this->assertSame(2, $pool->reap());

            return $ids;
        });

        $this->assertNotSame($held, $free);
        $left = $this->eventually(fn (): array => array_intersect([$held, $free], $this->serverConnectionIds($observer)), fn (array $left) => $left === []);
        $this->assertSame([], $left, 'both sessions ended in the server');
        $this->assertSame(1, $this->abortedClients($observer) - $kills, 'the held one was killed, the free one was not');
        $this->expectException(PDOException::class);
        $cache[0]->execute();
    }

    public function testHealthCheckReplacesAKilledConnection(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 0));

        [$first, $second] = run(function () use ($pool): array {
            $first = $this->connectionId($pool);
            Services::pdo()->exec("KILL $first");

            return [$first, $this->connectionId($pool)];
        });

        $this->assertNotSame($first, $second);
        $this->assertSame(['created' => 2, 'closed' => 1], array_intersect_key($pool->stats(), ['created' => 0, 'closed' => 0]));
    }

    public function testConnectionLostWithinTheCheckThresholdFailsOnceAndIsNotLentAgain(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 60));

        $outcome = run(function () use ($pool): array {
            $first = $this->connectionId($pool);
            Services::pdo()->exec("KILL $first");
            try {
                $this->connectionId($pool);
            } catch (PDOException $e) {
                $error = $e->errorInfo[1];
            }

            return [$error ?? null, $pool->stats()['open'], $this->connectionId($pool) !== $first];
        });

        // Not health-checked (idle for less than 60 s): the borrower sees the
        // loss, and the pool closes that connection instead of lending it again.
        $this->assertSame([2006, 0, true], $outcome);
    }

    public function testOpenTransactionIsRolledBackOnPut(): void
    {
        Services::pdo()->exec('CREATE TABLE IF NOT EXISTS pool_tx (n INT) ENGINE=InnoDB');
        Services::pdo()->exec('DELETE FROM pool_tx');
        $pool = $this->pool(new PoolOptions(max: 1));

        $seen = run(function () use ($pool): array {
            $db = $pool->get();
            $id = (int) $db->query('SELECT CONNECTION_ID()')->fetchColumn();
            $db->beginTransaction();
            $db->exec('INSERT INTO pool_tx VALUES (1)');
            $pool->put($db);
            unset($db);

            return $pool->use(fn (PDO $db): array => [
                (int) $db->query('SELECT CONNECTION_ID()')->fetchColumn() === $id,
                $db->inTransaction(),
                (int) $db->query('SELECT COUNT(*) FROM pool_tx')->fetchColumn(),
            ]);
        });

        $this->assertSame([true, false, 0], $seen);
        $this->assertSame(0, (int) Services::pdo()->query('SELECT COUNT(*) FROM pool_tx')->fetchColumn());
    }

    public function testConnectionKilledInsideATransactionIsClosedOnPut(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 60));

        $outcome = run(function () use ($pool): array {
            $db = $pool->get();
            $id = (int) $db->query('SELECT CONNECTION_ID()')->fetchColumn();
            $db->beginTransaction();
            Services::pdo()->exec("KILL $id");
            $pool->put($db);                    // the rollback fails: closed, not kept
            unset($db);

            return [$pool->stats()['open'], $this->connectionId($pool) !== $id];
        });

        $this->assertSame([0, true], $outcome);
    }

    public function testPutAfterALostConnectionErrorClosesIt(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 60));

        $outcome = run(function () use ($pool): array {
            $db = $pool->get();
            $id = (int) $db->query('SELECT CONNECTION_ID()')->fetchColumn();
            Services::pdo()->exec("KILL $id");
            try {
                $db->query('SELECT 1');
            } catch (PDOException) {
                // The caller handled it, then gives the connection back.
            }
            $pool->put($db);
            unset($db);

            return [$pool->stats()['open'], $this->connectionId($pool) !== $id];
        });

        $this->assertSame([0, true], $outcome);
    }

    /**
     * A handler canceled mid-query (Coroutine::cancel(), as an onAbort()
     * callback does when its client leaves): the connection is mid-answer,
     * so it is closed, never lent again, and the server ends it.
     */
    public function testACoroutineCanceledMidQueryClosesItsConnection(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 60));

        $outcome = run(function () use ($pool): array {
            $id = $this->connectionId($pool);
            $seen = null;
            $querying = go(function () use ($pool, &$seen): void {
                try {
                    $pool->use(fn (PDO $db) => $db->query('SELECT SLEEP(60)')->fetchAll());
                    $seen = 'the query ran to its end';
                } catch (\Rapier\CanceledException $e) {
                    $seen = get_class($e);
                }
            });
            Coroutine::sleep(0.3);
            Coroutine::cancel($querying);
            Coroutine::sleep(0.05);

            return [$seen, $pool->stats()['open'], $pool->stats()['closed'], $this->connectionId($pool) !== $id, $id];
        });

        [$seen, $open, $closed, $another, $id] = $outcome;
        $this->assertSame(['Rapier\CanceledException', 0, 1, true], [$seen, $open, $closed, $another]);
        // Closed, not left to finish its 60 s: MariaDB sees the close while it sleeps.
        $ids = $this->eventually(fn () => $this->serverConnectionIds(), fn (array $ids) => !in_array($id, $ids, true));
        $this->assertNotContains($id, $ids, 'the canceled query\'s connection ended in the server');
    }

    public function testSqlErrorKeepsTheConnection(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1));

        $outcome = run(function () use ($pool): array {
            $id = $this->connectionId($pool);
            try {
                $pool->use(fn (PDO $db) => $db->query('SELECT * FROM no_such_table'));
            } catch (PDOException $e) {
                $code = $e->getCode();
            }

            return [$code ?? null, $this->connectionId($pool) === $id];
        });

        $this->assertSame(['42S02', true], $outcome);
    }

    public function testRefusedConnectionNamesTheHostButNotThePassword(): void
    {
        $port = $this->closedPort();
        $pool = new PdoPool("mysql:host=127.0.0.1;port=$port;dbname=app;password=Dsn-Secret-1", 'app', 'Arg-Secret-2');

        $e = run(function () use ($pool): ?ConnectionException {
            try {
                $pool->get();
            } catch (ConnectionException $e) {
                return $e;
            }

            return null;
        });

        $this->assertInstanceOf(ConnectionException::class, $e);
        $this->assertSame(
            "Cannot connect to mysql:host=127.0.0.1;port=$port;dbname=app: SQLSTATE[HY000] [2002] Connection refused",
            $e->getMessage(),
        );
        $this->assertSame(2002, $e->getCode());
        // PDO's exception would carry the DSN, password and all, in its trace's arguments.
        $this->assertNull($e->getPrevious());
        $this->assertStringNotContainsString('Secret', print_r($pool, true));
        $this->assertSame(0, $pool->stats()['open']);
    }

    public function testRefusedConnectionWithoutSecretsInTheDsnChainsPdosException(): void
    {
        $port = $this->closedPort();
        $pool = new PdoPool("mysql:host=127.0.0.1;port=$port;dbname=app", 'app', 'Arg-Secret-2');

        $previous = run(function () use ($pool): ?\Throwable {
            try {
                $pool->get();
            } catch (ConnectionException $e) {
                return $e->getPrevious();
            }

            return null;
        });

        $this->assertInstanceOf(PDOException::class, $previous);
        $this->assertSame('SQLSTATE[HY000] [2002] Connection refused', $previous->getMessage());
    }

    public function testPersistentConnectionsAreRefused(): void
    {
        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('must not enable PDO::ATTR_PERSISTENT');
        new PdoPool(Services::mysqlDsn(), Services::mysqlUser(), Services::mysqlPassword(), [PDO::ATTR_PERSISTENT => true]);
    }

    private function pool(PoolOptions $options): PdoPool
    {
        return new PdoPool(Services::mysqlDsn(), Services::mysqlUser(), Services::mysqlPassword(), [
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        ], $options);
    }

    private function abortedClients(PDO $observer): int
    {
        return (int) $observer->query("SHOW GLOBAL STATUS LIKE 'Aborted_clients'")->fetch(PDO::FETCH_NUM)[1];
    }

    private function connectionId(PdoPool $pool): int
    {
        return $pool->use(fn (PDO $db) => (int) $db->query('SELECT CONNECTION_ID()')->fetchColumn());
    }

    /**
     * Ids of the test user's connections the server has now, without the
     * asking connection itself.
     *
     * @return list<int>
     */
    private function serverConnectionIds(?PDO $observer = null): array
    {
        $observer ??= Services::pdo();
        $query = $observer->prepare('SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ? AND ID <> CONNECTION_ID()');
        $query->execute([Services::mysqlUser()]);

        return array_map('intval', $query->fetchAll(PDO::FETCH_COLUMN));
    }

    /**
     * Asks $probe until $done accepts its answer, for server-side effects that
     * follow a client's action asynchronously; gives up after 10 s.
     */
    private function eventually(callable $probe, callable $done): mixed
    {
        $deadline = microtime(true) + 10;
        do {
            $value = $probe();
            if ($done($value)) {
                return $value;
            }
            usleep(20_000);
        } while (microtime(true) < $deadline);

        return $value;
    }

    /** A loopback port nothing listens on (bound and released). */
    private function closedPort(): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
        fclose($server);

        return $port;
    }
}
