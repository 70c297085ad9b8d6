<?php

declare(strict_types=1);

namespace Rapier\Tests\Bench;

use Bench\Chart;
use Bench\Report;
use Bench\Rounds;
use PHPUnit\Framework\TestCase;

require_once dirname(__DIR__, 2) . '/bench/lib/Report.php';
require_once dirname(__DIR__, 2) . '/bench/lib/Rounds.php';
require_once dirname(__DIR__, 2) . '/bench/lib/Floors.php';
require_once dirname(__DIR__, 2) . '/bench/lib/Chart.php';

/** bench/run.sh ROUNDS: the records of one step, measured several times, as the report shows and judges them. */
final class RoundsTest extends TestCase
{
    public function testFiguresAreMediansAndCountsAreSums(): void
    {
        $merged = Rounds::merge([
            self::record('rapier', 'slow', 400, 1, rps: 12000.0, cpu: 60.0, p99: 40.0, requests: 120000, socketErrors: 0),
            self::record('rapier', 'slow', 400, 2, rps: 15000.0, cpu: 50.0, p99: 30.0, requests: 150000, socketErrors: 3),
            self::record('rapier', 'slow', 400, 3, rps: 9000.0, cpu: 80.0, p99: 90.0, requests: 90000, socketErrors: 0),
        ]);

        self::assertSame(12000.0, $merged['rps']);
        self::assertSame(60.0, $merged['cpu_us_per_request']['server']);
        self::assertSame(40.0, $merged['latency_ms']['p99']);
        self::assertSame(360000, $merged['requests']);
        // One round's errors are never voted away by the others.
        self::assertSame(3, $merged['socket_errors']);
        self::assertSame(3, $merged['errors']['timeout']);
        self::assertSame([12000.0, 15000.0, 9000.0], $merged['rps_rounds']);
        self::assertSame(3, $merged['rounds']);
        self::assertSame(0, $merged['failed_rounds']);
        self::assertArrayNotHasKey('round', $merged);
    }

    public function testTheChartShowsTheMedianRateOfCorrectAnswersNotTheSumOfTheRounds(): void
    {
        $rounds = [];
        foreach ([12000.0, 15000.0, 9000.0] as $i => $rps) {
            $rounds[] = ['non2xx' => 1000 * $i, 'bad_body' => 0]
                + self::record('fpm16', 'hello', 10000, $i + 1, rps: $rps, cpu: 40.0, requests: (int) ($rps * 10));
        }
        $merged = Rounds::merge($rounds);

        // 360,000 responses in three 10 s rounds, 3,000 of them wrong (0.83%).
        self::assertEqualsWithDelta(12000.0 * (1 - 3000 / 360000), Chart::correctRps($merged), 0.001);
        // One round: 150,000 responses, 1,000 of them 503s.
        self::assertEqualsWithDelta(14900.0, Chart::correctRps($rounds[1]), 0.001);
        self::assertSame(0.0, Chart::correctRps(['non2xx' => 5, 'bad_body' => 0, 'requests' => 5] + $rounds[0]));
    }

    public function testAnEvenCountTakesTheMeanOfTheMiddleTwo(): void
    {
        self::assertSame(2.5, Rounds::median([4, 1, 2, 3]));
        self::assertSame(7, Rounds::median([7]));
        self::assertNull(Rounds::median([1.0, null, 3.0]));
    }

    public function testAFailedRoundIsLeftOutAndCounted(): void
    {
        $merged = Rounds::merge([
            self::record('fpm16', 'queries', 100, 1, rps: 300.0, cpu: 5000.0),
            ['server' => 'fpm16', 'scenario' => 'queries', 'connections' => 100, 'round' => 2, 'error' => 'still busy after 180 s'],
        ]);
        self::assertSame(300.0, $merged['rps']);
        self::assertSame(1, $merged['failed_rounds']);
        self::assertArrayNotHasKey('error', $merged);

        $allFailed = Rounds::merge([
            ['server' => 'fpm16', 'scenario' => 'queries', 'connections' => 100, 'round' => 1, 'error' => 'pre-check failed: x'],
            ['server' => 'fpm16', 'scenario' => 'queries', 'connections' => 100, 'round' => 2, 'error' => 'pre-check failed: y'],
        ]);
        self::assertSame('pre-check failed: x', $allFailed['error']);
        self::assertSame(2, $allFailed['failed_rounds']);
    }

    public function testTheReportShowsEachRoundAndJudgesFloorsOnTheMedians(): void
    {
        $runs = [];
        foreach ([[1, 12000.0, 1400.0], [2, 16000.0, 1500.0], [3, 15000.0, 1450.0]] as [$round, $rapier, $fpm]) {
            $runs[] = self::record('rapier', 'slow', 400, $round, rps: $rapier, cpu: 60.0);
            $runs[] = self::record('fpm16', 'slow', 400, $round, rps: $fpm, cpu: 400.0);
        }
        $report = new Report($runs, self::machine(), [], 10, true);

        self::assertSame(15000.0, $report->find('rapier', 'slow', 400)['rps']);
        $markdown = $report->markdown('chart.png');
        self::assertStringContainsString('Each scenario ran 3 rounds', $markdown);
        self::assertStringContainsString('| Rapier, coroutines | 15,000 (12,000, 16,000, 15,000) | 10× |', $markdown);
        // 15,000 against the median 1,450 meets the 10× floor; the first round alone (12,000 vs 1,400) would not.
        self::assertMatchesRegularExpression('/requests\/s ≥ 10× nginx \+ php-fpm 16\'s, slow, 400 connections \| 15,000 vs 1,450 [^|]*\| met \|/u', $markdown);
    }

    public function testAFloorTakesTheMedianOfTheRoundsRatios(): void
    {
        // The machine slowed down in round 2 for php-fpm and sped up in round 3 for both: the
        // ratio of the medians (20,000 / 2,900 = 6.9×) would blame that on Rapier, the rounds'
        // own ratios (10×, 6.7×, 10.3×) do not.
        $runs = [];
        foreach ([[1, 10000.0, 1000.0], [2, 20000.0, 3000.0], [3, 30000.0, 2900.0]] as [$round, $rapier, $fpm]) {
            $runs[] = self::record('rapier', 'slow', 400, $round, rps: $rapier, cpu: 60.0);
            $runs[] = self::record('fpm16', 'slow', 400, $round, rps: $fpm, cpu: 400.0);
        }
        $markdown = (new Report($runs, self::machine(), [], 10, true))->markdown('chart.png');

        self::assertStringContainsString("| Rapier, coroutines requests/s ≥ 10× nginx + php-fpm 16's, slow, 400 connections "
            . '| 20,000 vs 2,900 correct responses/s (10×; by round 10×, 6.67×, 10×) | met |', $markdown);
    }

    /** @return array<string, mixed> a record as bench/lib/measure.php writes it */
    private static function record(string $server, string $scenario, int $connections, int $round, float $rps, float $cpu,
        float $p99 = 10.0, int $requests = 100000, int $socketErrors = 0): array
    {
        return [
            'server' => $server, 'scenario' => $scenario, 'connections' => $connections, 'round' => $round,
            'duration_s' => 10.0, 'wall_s' => 10.2, 'requests' => $requests, 'rps' => $rps,
            'latency_ms' => ['p50' => $p99 / 4, 'p90' => $p99 / 2, 'p99' => $p99],
            'non2xx' => 0, 'bad_body' => 0, 'socket_errors' => $socketErrors,
            'errors' => ['connect' => 0, 'read' => 0, 'write' => 0, 'timeout' => $socketErrors],
            'cpu_s' => ['server' => 6.0, 'mariadb' => 7.0, 'redis' => 0.0, 'wrk' => 2.0, 'busy' => 16.0, 'other' => 1.0],
            'cpu_us_per_request' => ['server' => $cpu, 'mariadb' => 70.0, 'redis' => 0.0, 'wrk' => 20.0],
            'settle_s' => 0.5, 'server_processes' => 3, 'rss_bytes' => 50 << 20, 'pss_bytes' => 40 << 20, 'sample' => '',
        ];
    }

    /** @return array<string, mixed> */
    private static function machine(): array
    {
        return [
            'date' => '2026-11-21 16:00 UTC', 'cores' => 2, 'cpu' => 'test', 'memory_bytes' => 4e9, 'os' => 'Debian 12',
            'kernel' => '6.1', 'load_average_at_start' => [0.1, 0.1, 0.1], 'git_commit' => 'abc',
            'versions' => ['php' => '8.2', 'rapier' => '0', 'nginx' => '1', 'php-fpm' => '8.2', 'mariadb' => '10',
                'redis' => '7', 'wrk' => '4', 'lumen' => '8'],
            'opcache_jit' => ['rapier' => 'tracing', 'php-fpm' => 'off'],
        ];
    }
}
