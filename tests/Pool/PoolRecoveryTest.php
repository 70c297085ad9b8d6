<?php

declare(strict_types=1);

namespace Rapier\Tests\Pool;

use PDO;
use PDOException;
use PHPUnit\Framework\TestCase;
use Rapier\Coroutine;
use Rapier\Pool\ConnectionException;
use Rapier\Pool\PdoConnector;
use Rapier\Pool\PdoPool;
use Rapier\Pool\Pool;
use Rapier\Pool\PoolOptions;
use Rapier\Pool\RedisPool;
use Rapier\Tests\Support\RestartableServices;
use Rapier\WaitGroup;
use Redis;
use RedisException;
use Throwable;

use function Rapier\go;
use function Rapier\run;

/**
 * The database or Redis stops and comes back (issue 6's fault): borrowers
 * get a ConnectionException naming the host, never the password, while it
 * is down, and the same pool serves again once it is back, with nothing
 * restarted. Runs against a MariaDB and a Redis of its own, with passwords,
 * which it stops and starts.
 */
final class PoolRecoveryTest extends TestCase
{
    private const DB_USER = 'pool_fault';
    private const DB_PASSWORD = 'Db-Pw-5rk2x9';
    private const REDIS_PASSWORD = 'Redis-Pw-8dn3q4';

    /** Coroutines hammering the pool during a restart; twice its size, so some wait too. */
    private const WORKERS = 8;

    private static ?RestartableServices $services = null;

    private string $ignoreArgs = '';

    public static function setUpBeforeClass(): void
    {
        self::$services = RestartableServices::start();
        try {
            self::$services->mariadbAdmin(sprintf(
                "CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'; GRANT ALL ON rapier_test.* TO '%1\$s'@'127.0.0.1'",
                self::DB_USER,
                self::DB_PASSWORD,
            ));
            self::$services->stopRedis();
            self::$services->startRedis(['--requirepass', self::REDIS_PASSWORD]);
        } catch (Throwable $e) {
            // PHPUnit skips tearDownAfterClass() when this fails.
            self::tearDownAfterClass();
            throw $e;
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$services?->destroy();
        self::$services = null;
    }

    /**
     * Traces keep call arguments here, as with php.ini-development, so that
     * a password passed along anywhere would show in (string) $exception.
     */
    protected function setUp(): void
    {
        $this->ignoreArgs = (string) ini_set('zend.exception_ignore_args', '0');
    }

    protected function tearDown(): void
    {
        ini_set('zend.exception_ignore_args', $this->ignoreArgs);
    }

    public function testPdoPoolReportsTheOutageAndRecovers(): void
    {
        $pool = $this->pdoPool(new PoolOptions(max: 2, checkAfterIdle: 0));
        $query = fn (): int => $pool->use(fn (PDO $db) => (int) $db->query('SELECT 1')->fetchColumn());

        $this->assertSame(1, run($query));
        self::$services->stopMariaDb();
        $e = run(fn () => $this->caught($query));
        self::$services->startMariaDb();
        $this->assertSame(1, run($query));

        $port = self::$services->mysqlPort();
        $this->assertInstanceOf(ConnectionException::class, $e);
        $this->assertSame(
            "Cannot connect to mysql:host=127.0.0.1;port=$port;dbname=rapier_test: SQLSTATE[HY000] [2002] Connection refused",
            $e->getMessage(),
        );
        $this->assertPasswordHidden($e, self::DB_PASSWORD);
        $this->assertSame(['open' => 1, 'idle' => 1, 'in_use' => 0], array_slice($pool->stats(), 0, 3));
    }

    public function testPdoPoolRecoversFromARestartUnderLoad(): void
    {
        $pool = $this->pdoPool(new PoolOptions(max: self::WORKERS / 2));

        $log = $this->underLoad(
            $pool,
            fn (PDO $db) => $db->query('SELECT 1')->fetchColumn(),
            fn () => self::$services->stopMariaDb(),
            fn () => self::$services->startMariaDb(),
        );

        $this->assertRecovered($log);
        $this->assertLessThanOrEqual(self::WORKERS / 2, $pool->stats()['open']);
    }

    public function testRedisPoolReportsTheOutageAndRecovers(): void
    {
        $pool = $this->redisPool(new PoolOptions(max: 2, checkAfterIdle: 0));
        $query = fn (): array => $pool->use(fn (Redis $redis) => [$redis->incr('pool:recovery'), $redis->getDbNum()]);

        $this->assertSame([1, 2], run($query));
        self::$services->stopRedis();
        $e = run(fn () => $this->caught($query));
        self::$services->startRedis(['--requirepass', self::REDIS_PASSWORD]);
        // Redis runs without persistence here: the restarted server starts empty.
        $this->assertSame([1, 2], run($query));

        $port = self::$services->redisPort();
        $this->assertInstanceOf(ConnectionException::class, $e);
        $this->assertSame("Cannot connect to redis 127.0.0.1:$port db 2: Connection refused", $e->getMessage());
        $this->assertPasswordHidden($e, self::REDIS_PASSWORD);
    }

    public function testRedisPoolRecoversFromARestartUnderLoad(): void
    {
        $pool = $this->redisPool(new PoolOptions(max: self::WORKERS / 2));

        $log = $this->underLoad(
            $pool,
            fn (Redis $redis) => $redis->incr('pool:load'),
            fn () => self::$services->stopRedis(),
            fn () => self::$services->startRedis(['--requirepass', self::REDIS_PASSWORD]),
        );

        $this->assertRecovered($log);
    }

    public function testWrongPasswordIsAConnectionExceptionWithoutThePassword(): void
    {
        $pdo = new PdoPool(self::$services->mysqlDsn(), self::DB_USER, 'Wrong-Db-Pw');
        $redis = new RedisPool('127.0.0.1', self::$services->redisPort(), 'Wrong-Redis-Pw');

        [$pdoError, $redisError] = run(fn (): array => [
            $this->caught(fn () => $pdo->get()),
            $this->caught(fn () => $redis->get()),
        ]);

        $this->assertInstanceOf(ConnectionException::class, $pdoError);
        $this->assertStringContainsString("[1045] Access denied for user 'pool_fault'@'127.0.0.1' (using password: YES)", $pdoError->getMessage());
        $this->assertPasswordHidden($pdoError, 'Wrong-Db-Pw');
        $this->assertInstanceOf(ConnectionException::class, $redisError);
        $this->assertStringStartsWith('Cannot ', $redisError->getMessage());
        $this->assertStringContainsString('127.0.0.1:' . self::$services->redisPort(), $redisError->getMessage());
        $this->assertPasswordHidden($redisError, 'Wrong-Redis-Pw');
    }

    /**
     * Runs WORKERS coroutines that borrow and run $query in a loop while the
     * server is up, stopping, down, starting and back, and logs each
     * outcome with the phase it began in (a query that spans the stop
     * counts as stopping).
     *
     * @return list<array{string, int, string}> [phase, worker, outcome]
     */
    private function underLoad(Pool $pool, callable $query, callable $stop, callable $start): array
    {
        return run(function () use ($pool, $query, $stop, $start): array {
            $log = [];
            $phase = 'up';
            $workers = new WaitGroup();
            $workers->add(self::WORKERS);
            for ($w = 0; $w < self::WORKERS; $w++) {
                go(function () use ($pool, $query, $w, $workers, &$phase, &$log): void {
                    while ($phase !== 'done') {
                        $began = $phase;
                        $outcome = $this->outcome(fn () => $pool->use($query));
                        // A query that began while up and ended after the stop began may see the loss:
                        // it belongs to the stopping phase.
                        $log[] = [$began === 'up' && $phase !== 'up' ? 'stopping' : $began, $w, $outcome];
                        Coroutine::sleep(0.01);
                    }
                    $workers->done();
                });
            }
            foreach (['stopping' => $stop, 'down' => null, 'starting' => $start, 'back' => null] as $next => $action) {
                Coroutine::sleep(0.25);
                $phase = $next;
                if ($action !== null) {
                    $action();
                }
            }
            // Back until every worker has succeeded again (a loaded machine
            // may take a while), then a little longer.
            $deadline = microtime(true) + 20;
            while (count(array_unique(array_column(array_filter($log, fn ($e) => $e[0] === 'back' && $e[2] === 'ok'), 1))) < self::WORKERS
                && microtime(true) < $deadline) {
                Coroutine::sleep(0.05);
            }
            Coroutine::sleep(0.1);
            $phase = 'done';
            $workers->wait();

            return $log;
        });
    }

    /** What a borrow-and-query ended with, as a short word. */
    private function outcome(callable $fn): string
    {
        try {
            $fn();

            return 'ok';
        } catch (ConnectionException) {
            return 'refused';
        } catch (PDOException $e) {
            // A connection that was open when the server went: the borrower sees the loss once.
            return PdoConnector::isLost($e->errorInfo) ? 'lost' : 'PDOException: ' . $e->getMessage();
        } catch (RedisException) {
            return 'lost';
        } catch (Throwable $e) {
            return get_class($e) . ': ' . $e->getMessage();
        }
    }

    /** @param list<array{string, int, string}> $log */
    private function assertRecovered(array $log): void
    {
        $byPhase = [];
        $last = [];
        foreach ($log as [$phase, $worker, $outcome]) {
            $byPhase[$phase][$outcome] = ($byPhase[$phase][$outcome] ?? 0) + 1;
            $last[$worker] = $outcome;
        }
        $summary = json_encode($byPhase);
        $this->assertSame(['ok'], array_keys($byPhase['up']), $summary);
        // While down nothing succeeds, and every failure is a clear one: a
        // refused connect, or the loss seen on a connection opened before.
        $this->assertArrayHasKey('refused', $byPhase['down'], $summary);
        $this->assertSame([], array_diff(array_keys($byPhase['down']), ['refused', 'lost']), $summary);
        foreach (['stopping', 'starting', 'back'] as $phase) {
            $this->assertSame([], array_diff(array_keys($byPhase[$phase] ?? []), ['ok', 'refused', 'lost']), $summary);
        }
        $this->assertGreaterThan(0, $byPhase['back']['ok'] ?? 0, $summary);
        ksort($last);
        // Every worker ends on a success: the pool recovered on its own.
        $this->assertSame(array_fill(0, self::WORKERS, 'ok'), $last, $summary);
    }

    /** The message and every trace in the chain, with arguments (see setUp()). */
    private function assertPasswordHidden(Throwable $e, string $password): void
    {
        $this->assertStringNotContainsString($password, (string) $e);
    }

    private function caught(callable $fn): ?Throwable
    {
        try {
            $fn();
        } catch (Throwable $e) {
            return $e;
        }

        return null;
    }

    private function pdoPool(PoolOptions $options): PdoPool
    {
        return new PdoPool(self::$services->mysqlDsn(), self::DB_USER, self::DB_PASSWORD, [
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
            PDO::ATTR_TIMEOUT => 5,
        ], $options);
    }

    private function redisPool(PoolOptions $options): RedisPool
    {
        return new RedisPool('127.0.0.1', self::$services->redisPort(), self::REDIS_PASSWORD, 2, options: $options);
    }
}
