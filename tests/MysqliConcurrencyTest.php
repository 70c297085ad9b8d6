<?php

declare(strict_types=1);

namespace Rapier\Tests;

use mysqli_sql_exception;
use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Coroutines;
use Rapier\Tests\Support\Services;

/**
 * mysqli inside coroutines, against a real MariaDB: the same guarantees as
 * PDO, through mysqlnd's other front end.
 */
final class MysqliConcurrencyTest extends TestCase
{
    public function testFiftySleepQueriesOverlap(): void
    {
        $seconds = Coroutines::seconds(function () use (&$rows): void {
            $rows = Coroutines::map(50, static function (int $i): array {
                $db = Services::mysqli();
                $row = $db->query("SELECT SLEEP(0.2) AS slept, $i AS n")->fetch_assoc();
                $db->close();

                return $row;
            });
        });

        $this->assertCount(50, $rows);
        foreach ($rows as $i => $row) {
            $this->assertSame(['slept' => '0', 'n' => (string) $i], $row);
        }
        // 50 x 0.2 s would take 10 s one after another (the issue's bound is 1 s).
        $this->assertLessThan(1.0, $seconds);
    }

    public function testSleepQueriesBlockWithHooksDisabled(): void
    {
        $seconds = Coroutines::seconds(static function (): void {
            Coroutines::map(5, static function (): void {
                Services::mysqli()->query('SELECT SLEEP(0.2)')->fetch_all();
            }, hooks: false);
        });

        // Five 0.2 s queries one after another; overlapped they would take 0.2 s.
        $this->assertGreaterThanOrEqual(0.95, $seconds);
    }

    public function testPreparedStatementsReturnTheirOwnRows(): void
    {
        $results = Coroutines::map(20, static function (int $i): array {
            $db = Services::mysqli();
            $stmt = $db->prepare('SELECT ? AS n, SLEEP(?) AS slept');
            $delay = (20 - $i) * 0.005;
            $stmt->bind_param('id', $i, $delay);
            $stmt->execute();
            $row = $stmt->get_result()->fetch_assoc();

            return [$row['n'], $row['slept']];
        });

        foreach ($results as $i => [$n, $slept]) {
            $this->assertSame($i, $n);
            $this->assertSame(0, $slept);
        }
    }

    public function testSqlErrorSurfacesOnlyInItsCoroutine(): void
    {
        $results = Coroutines::map(4, static function (int $i): string {
            $db = Services::mysqli();
            try {
                $sql = $i === 1 ? 'SELECT * FROM no_such_table' : "SELECT $i AS n, SLEEP(0.05)";

                return 'row ' . $db->query($sql)->fetch_row()[0];
            } catch (mysqli_sql_exception $e) {
                return "error {$e->getCode()}";
            }
        });

        // 1146 is ER_NO_SUCH_TABLE.
        $this->assertSame(['row 0', 'error 1146', 'row 2', 'row 3'], $results);
    }
}
