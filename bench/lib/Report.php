<?php

/*
 * The Markdown report of one benchmark run: the machine, one table per
 * (scenario, connections) step with a row per server and its ratio to
 * nginx + php-fpm with 16 children (under it, Rapier's to nginx over
 * HTTPS), and the floors of issues 3 and 5 checked against the numbers.
 * Reads the records measure.php wrote; a step measured in several rounds is
 * shown as their medians (Rounds).
 */

declare(strict_types=1);

namespace Bench;

final class Report
{
    public const SERVERS = [
        'nginx' => 'nginx alone (ceiling)',
        'fpm16' => 'nginx + php-fpm 16',
        'fpm200' => 'nginx + php-fpm 200',
        'rapier' => 'Rapier, coroutines',
        'rapier-c1' => 'Rapier, concurrency 1',
        'lumen-fpm' => 'Lumen, nginx + php-fpm 16',
        'lumen-rapier' => 'Lumen on Rapier',
        'nginx-tls' => 'nginx alone, HTTPS (ceiling)',
        'rapier-tls' => 'Rapier, coroutines, HTTPS',
    ];

    public const SCENARIOS = [
        'hello' => 'hello JSON',
        'user' => 'user by id',
        'users' => '10 users',
        'queries' => '100 queries',
        'redis' => 'Redis GET',
        'slow' => 'slow I/O (SELECT SLEEP(0.01))',
    ];

    /** @var array<string, array<string, mixed>> records by "server scenario connections", rounds merged */
    private array $records = [];

    /** @var array<string, array<int, array<string, mixed>>> the measured records of each step by round, when there were several */
    private array $rounds = [];

    /** Rounds each scenario ran (run.sh's ROUNDS): the highest round a record names. */
    public readonly int $roundCount;

    /**
     * @param list<array<string, mixed>> $runs
     * @param array<string, mixed> $machine
     * @param list<string> $notes
     */
    public function __construct(array $runs, private readonly array $machine, private readonly array $notes,
        private readonly int $duration, private readonly bool $full)
    {
        $this->roundCount = max([1, ...array_map(static fn (array $run): int => $run['round'] ?? 1, $runs)]);
        $byStep = [];
        foreach ($runs as $run) {
            $byStep["{$run['server']} {$run['scenario']} {$run['connections']}"][] = $run;
        }
        foreach ($byStep as $key => $records) {
            if (count($records) === 1) {
                $this->records[$key] = $records[0];
                continue;
            }
            $this->records[$key] = Rounds::merge($records);
            foreach ($records as $record) {
                if (!isset($record['error'])) {
                    $this->rounds[$key][$record['round']] = $record;
                }
            }
        }
    }

    /** @return array<string, mixed>|null */
    public function find(string $server, string $scenario, int $connections): ?array
    {
        $record = $this->records["$server $scenario $connections"] ?? null;

        return $record === null || isset($record['error']) ? null : $record;
    }

    /**
     * The measured records of a step by round number; empty when it ran once.
     *
     * @return array<int, array<string, mixed>>
     */
    public function rounds(string $server, string $scenario, int $connections): array
    {
        return $this->rounds["$server $scenario $connections"] ?? [];
    }

    /**
     * A figure of one server's record over another's, in the same step, and,
     * when the step ran in several rounds, the rounds' own ratios as text for
     * the report: the ratio is then their median, else that of the records.
     *
     * @param array<string, mixed> $mine
     * @param array<string, mixed> $theirs
     * @param callable(array<string, mixed>): (float|int|null) $figure
     * @return array{float|null, string}
     */
    public function ratioOf(array $mine, array $theirs, callable $figure): array
    {
        $theirRounds = $this->rounds($theirs['server'], $theirs['scenario'], $theirs['connections']);
        $ratios = [];
        foreach ($this->rounds($mine['server'], $mine['scenario'], $mine['connections']) as $round => $record) {
            $a = $figure($record);
            $b = isset($theirRounds[$round]) ? $figure($theirRounds[$round]) : null;
            if ($a !== null && $b !== null && $b != 0) {
                $ratios[] = $a / $b;
            }
        }
        if (count($ratios) >= 2) {
            $text = implode(', ', array_map(static fn (float $x): string => self::ratio($x, 1), $ratios));

            return [(float) Rounds::median($ratios), "; by round $text"];
        }
        $a = $figure($mine);
        $b = $figure($theirs);

        return [$a !== null && $b !== null && $b != 0 ? $a / $b : null, ''];
    }

    /** @return list<array{string, int}> the (scenario, connections) steps measured, in report order */
    public function steps(): array
    {
        $steps = [];
        foreach (array_keys(self::SCENARIOS) as $scenario) {
            foreach ([100, 400, 10000] as $c) {
                foreach (array_keys(self::SERVERS) as $server) {
                    if (isset($this->records["$server $scenario $c"])) {
                        $steps[] = [$scenario, $c];
                        break;
                    }
                }
            }
        }

        return $steps;
    }

    public function markdown(string $chart): string
    {
        $m = $this->machine;
        $v = $m['versions'];
        $out = [
            sprintf('# Benchmark: %s run of %s', $this->full ? 'full' : 'quick', $m['date']),
            '',
            sprintf('Machine: %d cores (%s), %.1f GB memory, %s, kernel %s; load average %s when the run began.',
                $m['cores'], $m['cpu'], $m['memory_bytes'] / 1e9, $m['os'], $m['kernel'], implode(' ', $m['load_average_at_start'])),
            sprintf('Versions: PHP %s, Rapier %s (%s), nginx %s, php-fpm %s, MariaDB %s, Redis %s, wrk %s, Lumen %s, OpenSSL %s.',
                $v['php'], $v['rapier'], $m['git_commit'], $v['nginx'], $v['php-fpm'], $v['mariadb'], $v['redis'], $v['wrk'], $v['lumen'],
                // Not recorded before the HTTPS servers came.
                $v['openssl'] ?? 'unknown'),
            sprintf('Each step: wrk, 2 threads, %d s on loopback, after a warm-up and once the server is idle; every response checked. '
                . ($this->roundCount > 1 ? sprintf('Each scenario ran %d rounds, the servers taking turns; a figure is the median of the rounds '
                . '(requests/s of each round in brackets), a count (requests, failures, socket errors) their sum; a floor compares the servers round by round and takes the median ratio. ', $this->roundCount) : '')
                . 'CPU is the server\'s whole process tree (and MariaDB, Redis apart) per request, from /proc. '
                . 'opcache on everywhere; opcache.jit %s for Rapier, %s for php-fpm. How to read it: docs/benchmarks.md.',
                $this->duration, $m['opcache_jit']['rapier'] ?? 'unknown', $m['opcache_jit']['php-fpm'] ?? 'unknown'),
            '',
            "![requests/s and CPU per request]($chart)",
            '',
        ];
        foreach ($this->steps() as [$scenario, $c]) {
            array_push($out, ...$this->table($scenario, $c));
        }
        array_push($out, ...(new Floors($this))->markdown());
        if ($this->notes !== []) {
            $out[] = '## Notes';
            $out[] = '';
            foreach ($this->notes as $note) {
                $out[] = "- $note";
            }
            $out[] = '';
        }

        return implode("\n", $out);
    }

    /** @return list<string> */
    private function table(string $scenario, int $c): array
    {
        $out = [
            sprintf('## %s, %s connections', self::SCENARIOS[$scenario], number_format($c)),
            '',
            '| server | requests/s | vs fpm 16 | p50 ms | p99 ms | non-2xx | bad body | socket errors | CPU µs/req | vs fpm 16 | MariaDB µs/req | Redis µs/req | RSS / PSS MB | other load |',
            '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
        ];
        $base = $this->find('fpm16', $scenario, $c);
        $errors = [];
        foreach (self::SERVERS as $server => $title) {
            $r = $this->records["$server $scenario $c"] ?? null;
            if ($r === null) {
                continue;
            }
            if (isset($r['error'])) {
                $out[] = "| $title | failed | | | | | | | | | | | | |";
                $errors[] = "$title: {$r['error']}";
                continue;
            }
            if (($r['failed_rounds'] ?? 0) > 0) {
                $errors[] = sprintf('%s: %d of %d rounds could not be measured (runs.jsonl says why)', $title, $r['failed_rounds'], $r['rounds']);
            }
            $cpu = $r['cpu_us_per_request'];
            $out[] = '| ' . implode(' | ', [
                $title,
                number_format($r['rps']) . self::spread($r),
                self::ratio($r['rps'], $base['rps'] ?? null),
                self::ms($r['latency_ms']['p50']),
                self::ms($r['latency_ms']['p99']),
                number_format($r['non2xx']),
                number_format($r['bad_body']),
                number_format($r['socket_errors']),
                self::us($cpu['server']),
                self::ratio($cpu['server'], $base['cpu_us_per_request']['server'] ?? null),
                $scenario === 'hello' ? '' : self::us($cpu['mariadb']),
                $scenario === 'hello' ? '' : self::us($cpu['redis']),
                number_format($r['rss_bytes'] / 1048576) . ' / ' . number_format($r['pss_bytes'] / 1048576),
                sprintf('%.0f%%', 100 * $r['cpu_s']['other'] / max($r['duration_s'], 1e-9)),
            ]) . ' |';
            if ($r['sample'] !== '') {
                $sample = preg_replace('/\s+/', ' ', str_replace('`', "'", $r['sample']));
                $errors[] = "$title, first wrong answer: `$sample`";
            }
        }
        $out[] = '';
        $tls = $this->tlsComparison($scenario, $c);
        foreach ($tls === null ? $errors : [$tls, ...$errors] as $line) {
            $out[] = "- $line";
        }
        if ($tls !== null || $errors !== []) {
            $out[] = '';
        }

        return $out;
    }

    /**
     * Rapier over HTTPS against nginx over HTTPS in one step, as issue 3's
     * floors set Rapier against nginx over HTTP, but with no floor to meet;
     * null when the pair was not measured.
     */
    private function tlsComparison(string $scenario, int $c): ?string
    {
        $rapier = $this->find('rapier-tls', $scenario, $c);
        $nginx = $this->find('nginx-tls', $scenario, $c);
        if ($rapier === null || $nginx === null) {
            return null;
        }
        $rps = static fn (array $r): float => $r['rps'];
        $cpu = static fn (array $r): ?float => $r['cpu_us_per_request']['server'];
        [$rpsRatio, $rpsByRound] = $this->ratioOf($rapier, $nginx, $rps);
        [$cpuRatio, $cpuByRound] = $this->ratioOf($rapier, $nginx, $cpu);

        return sprintf('Rapier against nginx, both over HTTPS: %s vs %s requests/s (%s%s), %s vs %s CPU µs/req (%s%s)',
            number_format($rps($rapier)), number_format($rps($nginx)), self::ratio($rpsRatio, 1), $rpsByRound,
            self::us($cpu($rapier)), self::us($cpu($nginx)), self::ratio($cpuRatio, 1), $cpuByRound);
    }

    public static function ratio(float|int|null $value, float|int|null $base): string
    {
        if ($value === null || $base === null || $base == 0) {
            return '';
        }
        $ratio = $value / $base;

        return ($ratio >= 10 ? number_format($ratio, 0) : ($ratio >= 0.1 ? number_format($ratio, 2) : number_format($ratio, 3))) . '×';
    }

    /** The requests/s of each round, when there were several. */
    private static function spread(array $r): string
    {
        $rounds = $r['rps_rounds'] ?? [];
        if (count($rounds) < 2) {
            return '';
        }

        return ' (' . implode(', ', array_map(static fn (float|int $rps): string => number_format($rps), $rounds)) . ')';
    }

    private static function ms(float $ms): string
    {
        return $ms >= 100 ? number_format($ms, 0) : number_format($ms, 2);
    }

    public static function us(?float $us): string
    {
        return $us === null ? '' : ($us >= 100 ? number_format($us, 0) : number_format($us, 1));
    }
}
