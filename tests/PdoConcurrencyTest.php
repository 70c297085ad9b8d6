<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PDO;
use PDOException;
use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Coroutines;
use Rapier\Tests\Support\Services;
use Rapier\WaitGroup;

/**
 * PDO MySQL inside coroutines, against a real MariaDB: queries overlap when
 * the runtime hooks are on, block when they are off, and every coroutine gets
 * its own rows and its own errors.
 */
final class PdoConcurrencyTest extends TestCase
{
    public function testFiftySleepQueriesOverlap(): void
    {
        $seconds = Coroutines::seconds(function () use (&$rows): void {
            $rows = Coroutines::map(50, static function (int $i): array {
                $pdo = Services::pdo();

                return $pdo->query("SELECT SLEEP(0.2) AS slept, $i AS n")->fetch(PDO::FETCH_ASSOC);
            });
        });

        $this->assertCount(50, $rows);
        foreach ($rows as $i => $row) {
            $this->assertSame(['slept' => 0, 'n' => $i], $row);
        }
        // 50 x 0.2 s would take 10 s one after another (the issue's bound is 1 s).
        $this->assertLessThan(1.0, $seconds);
    }

    public function testSleepQueriesBlockWithHooksDisabled(): void
    {
        $seconds = Coroutines::seconds(static function (): void {
            Coroutines::map(5, static function (): void {
                Services::pdo()->query('SELECT SLEEP(0.2)')->fetchAll();
            }, hooks: false);
        });

        // Five 0.2 s queries one after another; overlapped they would take 0.2 s.
        $this->assertGreaterThanOrEqual(0.95, $seconds);
    }

    public function testEachCoroutineReadsItsOwnRows(): void
    {
        $results = Coroutines::map(20, static function (int $i): array {
            $pdo = Services::pdo();
            // Later coroutines sleep less, so the replies arrive in reverse order.
            $stmt = $pdo->prepare('SELECT ? AS n, SLEEP(?) AS slept');
            $stmt->execute([$i, (20 - $i) * 0.005]);
            $n = (int) $stmt->fetchColumn();
            // A result of several hundred kilobytes takes many reads, each a
            // chance for another coroutine to run in between.
            $limit = 20000 + $i;
            $seq = $pdo->query("SELECT seq FROM seq_1_to_$limit")->fetchAll(PDO::FETCH_COLUMN);

            return [$n, count($seq), array_sum($seq), $limit];
        });

        foreach ($results as $i => [$n, $count, $sum, $limit]) {
            $this->assertSame($i, $n);
            $this->assertSame($limit, $count);
            $this->assertSame($limit * ($limit + 1) / 2, $sum);
        }
    }

    public function testSqlErrorSurfacesOnlyInItsCoroutine(): void
    {
        $results = Coroutines::map(6, static function (int $i): string {
            $pdo = Services::pdo();
            try {
                $table = $i === 3 ? 'no_such_table' : "(SELECT $i AS n, SLEEP(0.05) AS s) AS t";
                $n = $pdo->query("SELECT n FROM $table")->fetchColumn();
            } catch (PDOException $e) {
                // The connection stays usable after an SQL error, as in stock PHP.
                $after = $pdo->query('SELECT 1')->fetchColumn();

                return "error {$e->getCode()} then $after";
            }

            return "row $n";
        });

        $this->assertSame([
            'row 0',
            'row 1',
            'row 2',
            'error 42S02 then 1',
            'row 4',
            'row 5',
        ], $results);
    }

    public function testTransactionsInDifferentCoroutinesStayApart(): void
    {
        $setup = Services::pdo();
        $setup->exec('DROP TABLE IF EXISTS pdo_tx');
        $setup->exec('CREATE TABLE pdo_tx (owner INT NOT NULL, PRIMARY KEY (owner)) ENGINE=InnoDB');
        // Barriers rather than sleeps: every coroutine has inserted before
        // any looks, and every one has looked before any commits.
        $inserted = new WaitGroup();
        $inserted->add(4);
        $looked = new WaitGroup();
        $looked->add(4);

        $results = Coroutines::map(4, static function (int $i) use ($inserted, $looked): array {
            $pdo = Services::pdo();
            $pdo->beginTransaction();
            $pdo->exec("INSERT INTO pdo_tx VALUES ($i)");
            $inserted->done();
            $inserted->wait();
            $seen = $pdo->query('SELECT owner FROM pdo_tx ORDER BY owner')->fetchAll(PDO::FETCH_COLUMN);
            $looked->done();
            $looked->wait();
            $i % 2 === 0 ? $pdo->commit() : $pdo->rollBack();

            return $seen;
        });

        // Uncommitted rows of the other coroutines' transactions are invisible.
        $this->assertSame([[0], [1], [2], [3]], $results);
        $committed = $setup->query('SELECT owner FROM pdo_tx ORDER BY owner')->fetchAll(PDO::FETCH_COLUMN);
        $this->assertSame([0, 2], $committed);
    }
}
