<?php

/*
 * The performance floors of issues 3 and 5, checked against one run. A floor
 * whose steps were not measured in this run (the quick run skips some) is
 * left out; one whose server could not run is listed as not measured. With
 * several rounds a floor's ratio is the median of the rounds' ratios: the two
 * servers of a round ran minutes apart, so a slow spell of the machine that
 * hits both cancels out, where it would not between their separate medians.
 */

declare(strict_types=1);

namespace Bench;

final class Floors
{
    private const MET = 'met';
    private const MISSED = 'missed';
    private const NOT_MEASURED = 'not measured';
    private const NOT_COMPARABLE = 'not comparable';

    /**
     * Share of failed answers (non-2xx, bad body, socket errors) above which
     * a server's CPU per request says nothing: nginx's 502 for a php-fpm
     * whose backlog is full costs a few microseconds, and a run of mostly
     * 502s would look cheap.
     */
    private const MAX_FAILED_SHARE = 0.01;

    public function __construct(private readonly Report $report)
    {
    }

    /** @return list<string> */
    public function markdown(): array
    {
        $rows = [...$this->issue3(), ...$this->issue5()];
        if ($rows === []) {
            return [];
        }
        $out = ['## Floors (issues 3 and 5)', '', '| floor | measured | |', '|---|---|---|'];
        foreach ($rows as [$floor, $measured, $result]) {
            $out[] = "| $floor | $measured | " . ($result === self::MISSED ? "**$result**" : $result) . ' |';
        }
        $out[] = '';

        return $out;
    }

    /** @return list<array{string, string, string}> */
    private function issue3(): array
    {
        $rows = [];
        foreach ([100, 400, 10000] as $c) {
            $rows[] = $this->cpuRatio('hello', $c, 'nginx', 1.1, 'nginx');
        }
        $rapier = $this->report->find('rapier', 'hello', 100);
        $nginx = $this->report->find('nginx', 'hello', 100);
        if ($rapier !== null && $nginx !== null) {
            [$share, $byRound] = $this->report->ratioOf($rapier, $nginx, static fn (array $r): float => $r['rps']);
            $rows[] = ['Rapier requests/s ≥ 90% of nginx\'s, hello, 100 connections',
                sprintf('%s vs %s req/s (%.0f%%%s)', number_format($rapier['rps']), number_format($nginx['rps']), 100 * $share, $byRound),
                self::result($share >= 0.9)];
        }
        foreach (array_keys(Report::SCENARIOS) as $scenario) {
            $r = $this->report->find('rapier', $scenario, 10000);
            if ($r !== null) {
                $rows[] = ["Rapier: no socket errors at 10,000 connections, $scenario",
                    sprintf('%d socket errors (php-fpm 16: %s)', $r['socket_errors'],
                        $this->report->find('fpm16', $scenario, 10000)['socket_errors'] ?? '—'), self::result($r['socket_errors'] === 0)];
            }
        }

        return array_values(array_filter($rows));
    }

    /** @return list<array{string, string, string}> */
    private function issue5(): array
    {
        $rows = [];
        $limits = ['hello' => 10, 'user' => 4, 'users' => 4, 'redis' => 4, 'queries' => 2];
        foreach ($limits as $scenario => $divisor) {
            foreach ([100, 400, 10000] as $c) {
                $rows[] = $this->cpuRatio($scenario, $c, 'fpm16', 1 / $divisor, 'php-fpm 16');
            }
        }
        $rows[] = $this->rpsRatio('rapier', 'fpm16', 'slow', 400, 10);
        $rows[] = $this->rpsRatio('rapier', 'fpm200', 'slow', 400, 2);
        foreach ([100, 400, 10000] as $c) {
            $rows[] = $this->rpsRatio('lumen-rapier', 'lumen-fpm', 'hello', $c, 10);
        }

        return array_values(array_filter($rows));
    }

    /** @return array{string, string, string}|null */
    private function cpuRatio(string $scenario, int $c, string $base, float $limit, string $baseTitle): ?array
    {
        $r = $this->report->find('rapier', $scenario, $c);
        $b = $this->report->find($base, $scenario, $c);
        if ($r === null || $b === null) {
            return null;
        }
        $what = $limit >= 1 ? sprintf('%.1f×', $limit) : sprintf('1/%d of', (int) round(1 / $limit));
        $floor = sprintf('Rapier CPU/request ≤ %s %s\'s, %s, %s connections', $what, $baseTitle, $scenario, number_format($c));
        if (self::failedShare($b) > self::MAX_FAILED_SHARE) {
            return [$floor, sprintf('%s failed %.0f%% of its requests', $baseTitle, 100 * self::failedShare($b)), self::NOT_COMPARABLE];
        }
        if (self::failedShare($r) > self::MAX_FAILED_SHARE) {
            // Its refusals (503 after queue_timeout) are cheap too: no CPU figure to claim.
            return [$floor, sprintf('Rapier failed %.0f%% of its requests', 100 * self::failedShare($r)), self::MISSED];
        }
        $cpu = static fn (array $x): ?float => $x['cpu_us_per_request']['server'];
        [$ratio, $byRound] = $this->report->ratioOf($r, $b, $cpu);

        return [$floor, sprintf('%s vs %s µs (%s%s)', Report::us($cpu($r)), Report::us($cpu($b)), Report::ratio($ratio, 1), $byRound),
            self::result($ratio !== null && $ratio <= $limit)];
    }

    /** @param array<string, mixed> $r */
    private static function failedShare(array $r): float
    {
        $failed = $r['non2xx'] + $r['bad_body'] + $r['socket_errors'];

        return $failed / max(1, $r['requests'] + $r['socket_errors']);
    }

    private static function result(bool $met): string
    {
        return $met ? self::MET : self::MISSED;
    }

    /** @return array{string, string, string}|null */
    private function rpsRatio(string $server, string $base, string $scenario, int $c, float $factor): ?array
    {
        $floor = sprintf('%s requests/s ≥ %g× %s\'s, %s, %s connections',
            Report::SERVERS[$server], $factor, Report::SERVERS[$base], $scenario, number_format($c));
        $r = $this->report->find($server, $scenario, $c);
        $b = $this->report->find($base, $scenario, $c);
        if ($b === null) {
            return null;
        }
        if ($r === null) {
            return $server === 'lumen-rapier' && $c === 100 ? [$floor, '—', self::NOT_MEASURED] : null;
        }

        // Correct answers only: a server that answers 502 fast must not win on requests/s.
        $mine = self::goodRps($r);
        $theirs = self::goodRps($b);
        [$ratio, $byRound] = $this->report->ratioOf($r, $b, self::goodRps(...));

        return [$floor, sprintf('%s vs %s correct responses/s (%s%s)', number_format($mine), number_format($theirs),
            Report::ratio($ratio, 1), $byRound), self::result($ratio !== null && $ratio >= $factor)];
    }

    /** @param array<string, mixed> $r */
    private static function goodRps(array $r): float
    {
        return $r['rps'] * (1 - min(1.0, self::failedShare($r)));
    }
}
