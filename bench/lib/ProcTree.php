<?php

/*
 * CPU time and memory of process trees, read from /proc.
 *
 * A server is a tree (nginx master and workers, php-fpm master and children,
 * Rapier master and workers): its cost is the sum over every process in it.
 * CPU is utime + stime + cutime + cstime of /proc/PID/stat, in clock ticks.
 * The children's fields matter for processes that exit during a run (a
 * recycled php-fpm child, a replaced worker): their time moves into the
 * parent's cutime/cstime when reaped, so "sum over the tree after" minus
 * "sum over the tree before" counts each tick once. The resolution is one
 * tick (10 ms) per process, small beside the seconds of CPU a run uses.
 *
 * Memory: RSS and PSS (from smaps_rollup) summed over the tree. RSS counts
 * shared pages (the binary, opcache's shared memory) once per process, so
 * for a pool of 200 php-fpm children it overstates what the pool really
 * holds; PSS splits shared pages between their sharers and adds up honestly.
 */

declare(strict_types=1);

namespace Bench;

final class ProcTree
{
    private static ?int $ticksPerSecond = null;

    /**
     * The roots and all their descendants that are alive now.
     *
     * @param list<int> $roots
     * @return list<int>
     */
    public static function pids(array $roots): array
    {
        $children = [];
        foreach (glob('/proc/[0-9]*', GLOB_ONLYDIR) ?: [] as $dir) {
            $fields = self::stat((int) basename($dir));
            if ($fields !== null) {
                $children[(int) $fields[1]][] = (int) basename($dir);
            }
        }
        $tree = [];
        $queue = array_values(array_filter($roots, static fn (int $pid): bool => is_dir("/proc/$pid")));
        while ($queue !== []) {
            $pid = array_shift($queue);
            if (isset($tree[$pid])) {
                continue;
            }
            $tree[$pid] = true;
            array_push($queue, ...($children[$pid] ?? []));
        }

        return array_keys($tree);
    }

    /**
     * CPU seconds used so far by these processes and their reaped children.
     *
     * @param list<int> $pids
     */
    public static function cpuSeconds(array $pids): float
    {
        $ticks = 0;
        foreach ($pids as $pid) {
            $fields = self::stat($pid);
            if ($fields !== null) {
                // utime, stime, cutime, cstime: fields 14-17 of stat(5).
                $ticks += (int) $fields[11] + (int) $fields[12] + (int) $fields[13] + (int) $fields[14];
            }
        }

        return $ticks / self::ticksPerSecond();
    }

    /**
     * Resident and proportional set sizes summed over these processes, in bytes.
     *
     * @param list<int> $pids
     * @return array{rss: int, pss: int}
     */
    public static function memory(array $pids): array
    {
        $rss = $pss = 0;
        foreach ($pids as $pid) {
            $rollup = @file_get_contents("/proc/$pid/smaps_rollup");
            if ($rollup === false) {
                continue;
            }
            if (preg_match('/^Rss:\s+(\d+) kB/m', $rollup, $m) === 1) {
                $rss += (int) $m[1] * 1024;
            }
            if (preg_match('/^Pss:\s+(\d+) kB/m', $rollup, $m) === 1) {
                $pss += (int) $m[1] * 1024;
            }
        }

        return ['rss' => $rss, 'pss' => $pss];
    }

    /**
     * CPU seconds of the whole machine so far (all cores), from /proc/stat:
     * "busy" is user + system + irq + steal at normal priority; "nice" is
     * what niced processes used (they yield to the benchmark, so they are
     * kept apart); "softirq" is the kernel's deferred network work, which
     * /proc charges to no process (on loopback, both ends' TCP processing).
     *
     * @return array{busy: float, nice: float, softirq: float}
     */
    public static function machineSeconds(): array
    {
        $line = strtok((string) file_get_contents('/proc/stat'), "\n");
        // user nice system idle iowait irq softirq steal (guest time is already in user).
        [$user, $nice, $system, , , $irq, $softirq, $steal] = array_map('intval', array_slice(preg_split('/\s+/', trim((string) $line)), 1, 8));
        $hz = self::ticksPerSecond();

        return ['busy' => ($user + $system + $irq + $steal) / $hz, 'nice' => $nice / $hz, 'softirq' => $softirq / $hz];
    }

    /**
     * The fields of /proc/PID/stat after the command name, from "state"
     * (field 3) on, or null when the process is gone. The name is skipped by
     * its closing parenthesis: it may itself hold spaces and parentheses.
     *
     * @return list<string>|null
     */
    private static function stat(int $pid): ?array
    {
        $stat = @file_get_contents("/proc/$pid/stat");
        if ($stat === false) {
            return null;
        }
        $end = strrpos($stat, ')');

        return $end === false ? null : explode(' ', trim(substr($stat, $end + 2)));
    }

    private static function ticksPerSecond(): int
    {
        return self::$ticksPerSecond ??= max(1, (int) trim((string) shell_exec('getconf CLK_TCK 2>/dev/null')) ?: 100);
    }
}
