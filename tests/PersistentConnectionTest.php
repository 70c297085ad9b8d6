<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\PhpProcess;
use Rapier\Tests\Support\Services;

/**
 * Persistent connections raced by coroutines. PDO's and phpredis's persistent
 * lookup-connect-register sequence is not re-entrant: a connect that suspends
 * lets a second coroutine into it, which used to crash inside mysqlnd. Rapier
 * serialises these connects. Each race runs in a child process, so a crash is
 * a failing test rather than the end of the suite.
 */
final class PersistentConnectionTest extends TestCase
{
    /**
     * Eight coroutines open the same persistent connection at once, then
     * (after all have connected) take turns on it: a connection is never used
     * by two coroutines at a time, which is a separate, reported error.
     */
    private const RACE = <<<'PHP'
        <?php
        declare(strict_types=1);

        use Rapier\Channel;
        use Rapier\WaitGroup;
        use function Rapier\go;
        use function Rapier\run;

        $out = [];
        run(static function () use (&$out): void {
            $connected = new WaitGroup();
            $turn = new Channel(1);
            $connected->add(8);
            for ($i = 0; $i < 8; $i++) {
                go(static function () use ($i, $connected, $turn, &$out): void {
                    $conn = connect();
                    $connected->done();
                    $connected->wait();
                    $turn->push(true);
                    $out[$i] = query($conn, $i);
                    $turn->pop();
                });
            }
        });
        ksort($out);
        echo json_encode($out), "\n";
        PHP;

    public function testRacedPdoPersistentConnectsAreSerialised(): void
    {
        $dsn = var_export(Services::mysqlDsn(), true);
        $user = var_export(Services::mysqlUser(), true);
        $password = var_export(Services::mysqlPassword(), true);
        $child = PhpProcess::run(self::RACE . <<<PHP

            function connect(): PDO
            {
                return new PDO($dsn, $user, $password, [
                    PDO::ATTR_PERSISTENT => true,
                    PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
                ]);
            }

            function query(PDO \$pdo, int \$i): array
            {
                return \$pdo->query("SELECT \$i, CONNECTION_ID()")->fetch(PDO::FETCH_NUM);
            }
            PHP);

        $this->assertSame(0, $child->exitCode, $child->describe());
        $rows = json_decode($child->stdout, true);
        $this->assertSame(range(0, 7), array_column($rows, 0), $child->describe());
        // Persistent: all eight share one server connection.
        $this->assertCount(1, array_unique(array_column($rows, 1)), $child->describe());
    }

    public function testRacedRedisPconnectsAreSerialised(): void
    {
        $port = Services::redisPort();
        $child = PhpProcess::run(self::RACE . <<<PHP

            function connect(): Redis
            {
                \$redis = new Redis();
                \$redis->pconnect('127.0.0.1', $port);
                return \$redis;
            }

            function query(Redis \$redis, int \$i): array
            {
                \$redis->set("pconnect:\$i", "v\$i");
                return [\$i, \$redis->get("pconnect:\$i")];
            }
            PHP);

        $this->assertSame(0, $child->exitCode, $child->describe());
        $rows = json_decode($child->stdout, true);
        $expected = array_map(static fn (int $i): array => [$i, "v$i"], range(0, 7));
        $this->assertSame($expected, $rows, $child->describe());
    }
}
