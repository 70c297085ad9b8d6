<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PDO;
use PDOException;
use PHPUnit\Framework\TestCase;
use Rapier\CanceledException;
use Rapier\Tests\Support\Services;

use function Rapier\parallel;
use function Rapier\run;

/**
 * Rapier\parallel() over real MariaDB and Redis connections: the callables'
 * queries are in the server at the same time, results come back under their
 * keys, and a failing query cancels the others' waits.
 */
final class ParallelTest extends TestCase
{
    private const TAG = 'rapier-parallel-test';

    public function testQueriesRunInTheServerAtTheSameTime(): void
    {
        $results = run(static function (): array {
            $sleeper = static fn (int $n): callable => static function () use ($n): string {
                $pdo = Services::pdo();
                try {
                    $pdo->query('SELECT SLEEP(30) /* ' . self::TAG . ' */')->fetchAll();

                    return 'slept';
                } catch (PDOException $e) {
                    // The observer's KILL QUERY: the connection is still usable.
                    return $e->errorInfo[1] . ', then ' . $pdo->query("SELECT $n")->fetchColumn();
                }
            };

            return parallel([
                'one' => $sleeper(1),
                'two' => $sleeper(2),
                'three' => $sleeper(3),
                // Sees the three queries running at once, then ends them (MariaDB
                // error 1317, query interrupted). Had parallel() run the callables
                // one after another, it would never see more than one.
                'observer' => static function (): int {
                    $observer = Services::pdo();
                    $deadline = microtime(true) + 20;
                    do {
                        $ids = self::runningTaggedQueries($observer);
                        if (count($ids) === 3) {
                            foreach ($ids as $id) {
                                $observer->exec("KILL QUERY $id");
                            }

                            return 3;
                        }
                        usleep(5000);
                    } while (microtime(true) < $deadline);

                    return count($ids);
                },
                'redis' => static fn (): string|false => Services::redis()->echo('from redis'),
            ]);
        });

        $this->assertSame([
            'one' => '1317, then 1',
            'two' => '1317, then 2',
            'three' => '1317, then 3',
            'observer' => 3,
            'redis' => 'from redis',
        ], $results);
    }

    public function testAFailingQueryCancelsTheOthersWaits(): void
    {
        $outcome = [];
        $thrown = null;
        run(static function () use (&$outcome, &$thrown): void {
            try {
                parallel([
                    'long' => static function () use (&$outcome): void {
                        try {
                            Services::pdo()->query('SELECT SLEEP(5) /* ' . self::TAG . ' */')->fetchAll();
                            $outcome['long'] = 'finished';
                        } catch (CanceledException) {
                            $outcome['long'] = 'canceled';
                        }
                    },
                    'broken' => static function (): void {
                        $pdo = Services::pdo();
                        // After 'long' has sent its query, so that its wait is the one canceled.
                        $pdo->query('SELECT SLEEP(0.05)')->fetchAll();
                        $pdo->query('SELECT * FROM no_such_table');
                    },
                ]);
            } catch (PDOException $e) {
                $thrown = $e;
            }
        });

        $this->assertInstanceOf(PDOException::class, $thrown);
        $this->assertStringContainsString('no_such_table', $thrown->getMessage());
        $this->assertSame(['long' => 'canceled'], $outcome);
    }

    /** @return list<int> the ids of the connections running one of this test's queries */
    private static function runningTaggedQueries(PDO $observer): array
    {
        $query = $observer->prepare(
            "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND ID <> CONNECTION_ID() AND COMMAND = 'Query'"
        );
        $query->execute(['%' . self::TAG . '%']);

        return array_map('intval', $query->fetchAll(PDO::FETCH_COLUMN));
    }
}
