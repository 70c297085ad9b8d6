<?php

/*
 * The PNG bar chart of a run, drawn by gnuplot: correct responses/s (top)
 * and server CPU per request (bottom), one group of bars per step, one bar per server.
 * Both axes are logarithmic: nginx and php-fpm differ by 10-100x, and a
 * linear axis would flatten everything but the fastest server.
 */

declare(strict_types=1);

namespace Bench;

final class Chart
{
    public function __construct(private readonly Report $report)
    {
    }

    /** Writes $png (and the .dat/.gp files beside it); returns false when gnuplot failed. */
    public function write(string $png): bool
    {
        $base = substr($png, 0, -4);
        $servers = [];
        foreach (array_keys(Report::SERVERS) as $server) {
            foreach ($this->report->steps() as [$scenario, $c]) {
                if ($this->report->find($server, $scenario, $c) !== null) {
                    $servers[] = $server;
                    break;
                }
            }
        }
        if ($servers === []) {
            return false;
        }
        file_put_contents("$base-rps.dat", $this->data($servers, self::correctRps(...)));
        file_put_contents("$base-cpu.dat", $this->data($servers, static fn (array $r): ?float => $r['cpu_us_per_request']['server']));
        file_put_contents("$base.gp", $this->script($png, "$base-rps.dat", "$base-cpu.dat", count($servers)));
        exec('gnuplot ' . escapeshellarg("$base.gp") . ' 2>&1', $output, $status);

        return $status === 0 && is_file($png);
    }

    /**
     * Correct answers per second: a php-fpm answering 502 at full speed must
     * not look fast. From the rate and the share of wrong answers, not from
     * the counts over the duration: across rounds the counts are sums and
     * the duration a median (Rounds), which would multiply the rate by N.
     *
     * @param array<string, mixed> $r
     */
    public static function correctRps(array $r): float
    {
        $wrong = $r['non2xx'] + $r['bad_body'];

        return $r['rps'] * (1 - min(1.0, $wrong / max(1, $r['requests'])));
    }

    /**
     * One row per step, one column per server; "-" where a server did not
     * run that step.
     *
     * @param list<string> $servers
     * @param callable(array<string, mixed>): ?float $value
     */
    private function data(array $servers, callable $value): string
    {
        $lines = ['step' . "\t" . implode("\t", array_map(static fn (string $s): string => '"' . Report::SERVERS[$s] . '"', $servers))];
        foreach ($this->report->steps() as [$scenario, $c]) {
            $row = [sprintf('"%s c=%s"', $scenario, $c >= 1000 ? ($c / 1000) . 'k' : $c)];
            foreach ($servers as $server) {
                $r = $this->report->find($server, $scenario, $c);
                $v = $r === null ? null : $value($r);
                $row[] = $v === null || $v <= 0 ? '-' : (string) $v;
            }
            $lines[] = implode("\t", $row);
        }

        return implode("\n", $lines) . "\n";
    }

    private function script(string $png, string $rps, string $cpu, int $columns): string
    {
        $last = $columns + 1;

        return <<<GP
            set terminal pngcairo size 1600,1000 font "sans,10"
            set output "$png"
            set datafile separator "\\t"
            set datafile missing "-"
            set style data histograms
            set style histogram clustered gap 1
            set style fill solid 0.85 border -1
            set boxwidth 0.9
            # gnuplot's colours repeat after eight, and a full run has nine servers.
            set linetype 9 linecolor rgb "#8c564b"
            set logscale y
            set grid ytics mytics
            set key outside right top
            set xtics rotate by -30
            set multiplot layout 2,1
            set title "correct responses/s (2xx with the right body; higher is better)"
            plot for [i=2:$last] "$rps" using i:xtic(1) title columnheader(i)
            set title "server CPU µs per request (lower is better)"
            plot for [i=2:$last] "$cpu" using i:xtic(1) title columnheader(i)
            unset multiplot
            GP;
    }
}
