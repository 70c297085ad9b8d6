<?php

/*
 * One step measured several times (run.sh's ROUNDS) made into one record of
 * the shape measure.php writes, for the tables, the floors and the chart:
 * the median of every rate, latency, CPU and memory figure, and the sum of
 * every count (requests, failed answers, socket errors), so that an error in
 * one round is never voted away by the others. The rounds' own requests/s
 * stay in the record ('rps_rounds'), and results.json keeps every raw record.
 */

declare(strict_types=1);

namespace Bench;

final class Rounds
{
    private const SUMMED = ['requests', 'non2xx', 'bad_body', 'socket_errors'];

    private const MEDIAN = ['duration_s', 'wall_s', 'rps', 'settle_s', 'server_processes', 'rss_bytes', 'pss_bytes'];

    /** Figures kept per key: latency percentiles, CPU seconds and CPU per request of each process group. */
    private const MEDIAN_MAPS = ['latency_ms', 'cpu_s', 'cpu_us_per_request'];

    /**
     * @param non-empty-list<array<string, mixed>> $records the same step, one per round, in round order
     * @return array<string, mixed>
     */
    public static function merge(array $records): array
    {
        $measured = array_values(array_filter($records, static fn (array $r): bool => !isset($r['error'])));
        $failed = count($records) - count($measured);
        if ($measured === []) {
            return $records[0] + ['rounds' => count($records), 'failed_rounds' => $failed];
        }
        $merged = $measured[0];
        foreach (self::SUMMED as $key) {
            $merged[$key] = array_sum(array_column($measured, $key));
        }
        foreach (array_keys($merged['errors']) as $key) {
            $merged['errors'][$key] = array_sum(array_map(static fn (array $r): int => $r['errors'][$key], $measured));
        }
        foreach (self::MEDIAN as $key) {
            $merged[$key] = self::median(array_column($measured, $key));
        }
        foreach (self::MEDIAN_MAPS as $map) {
            foreach (array_keys($merged[$map]) as $key) {
                $merged[$map][$key] = self::median(array_map(static fn (array $r): int|float|null => $r[$map][$key], $measured));
            }
        }
        foreach ($measured as $r) {
            if ($r['sample'] !== '') {
                $merged['sample'] = $r['sample'];
                break;
            }
        }
        $merged['rounds'] = count($records);
        $merged['failed_rounds'] = $failed;
        $merged['rps_rounds'] = array_column($measured, 'rps');
        unset($merged['round']);

        return $merged;
    }

    /**
     * The middle value (the mean of the two middle ones for an even count);
     * null when a round has none (CPU per request of a round without a response).
     *
     * @param list<int|float|null> $values
     */
    public static function median(array $values): int|float|null
    {
        if (in_array(null, $values, true)) {
            return null;
        }
        sort($values);
        $n = count($values);
        $mid = intdiv($n, 2);

        return $n % 2 === 1 ? $values[$mid] : ($values[$mid - 1] + $values[$mid]) / 2;
    }
}
