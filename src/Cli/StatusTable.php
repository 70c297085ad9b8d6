<?php

declare(strict_types=1);

namespace Rapier\Cli;

/** The status document as text: a summary line, then one row per process. */
final class StatusTable
{
    private const COLUMNS = ['PID', 'ROLE', '#', 'GEN', 'STATE', 'UPTIME', 'REQUESTS', 'IN-FLIGHT', 'LIMIT', 'SHED', 'ABANDONED', 'SLOW', 'TLS-FAIL', 'CONNS', 'WS', 'MEMORY', 'RSS'];

    /** @param array<string, mixed> $doc */
    public static function render(array $doc): string
    {
        $rows = [self::COLUMNS];
        foreach ($doc['workers'] as $w) {
            $rows[] = [
                (string) $w['pid'], self::role($w['role']), (string) $w['index'],
                (string) $w['generation'], $w['state'], self::duration((float) $w['uptime']),
                (string) $w['requests'], (string) $w['in_flight'], self::limit((int) ($w['concurrency_limit'] ?? 0)),
                (string) ($w['shed'] ?? 0), (string) ($w['abandoned'] ?? 0), (string) ($w['slow'] ?? 0),
                (string) ($w['tls_handshake_failures'] ?? 0), (string) $w['connections'], (string) ($w['websockets'] ?? 0),
                self::bytes((int) $w['memory']), self::bytes((int) $w['rss']),
            ];
        }

        return self::summary($doc) . self::table($rows);
    }

    /** @param array<string, mixed> $doc */
    private static function summary(array $doc): string
    {
        $master = $doc['master'];
        $totals = $doc['totals'] ?? [];
        // The summary counts the processes that serve; those starting or draining (a reload, a recycle) are named apart.
        $ready = ['worker' => 0, 'task_worker' => 0, 'user_process' => 0];
        $others = [];
        foreach ($doc['workers'] as $w) {
            if ($w['state'] === 'ready') {
                $ready[$w['role']] = ($ready[$w['role']] ?? 0) + 1;
            } else {
                $others[$w['state']] = ($others[$w['state']] ?? 0) + 1;
            }
        }
        $others = array_map(fn (string $state, int $n): string => "$n $state", array_keys($others), $others);
        // User processes are named only where there are some: most servers have none.
        $processes = $ready['user_process'] === 0 ? '' : sprintf(', %d user process%s', $ready['user_process'], $ready['user_process'] === 1 ? '' : 'es');
        $websockets = (int) ($totals['websockets'] ?? 0);
        $tlsFailures = (int) ($totals['tls_handshake_failures'] ?? 0);
        // Messages between workers likewise, only where the application sends some.
        $sent = (int) ($totals['messages_sent'] ?? 0);
        $messages = $sent === 0 ? '' : sprintf(', %d message%s between workers (%d handled)', $sent, $sent === 1 ? '' : 's',
            (int) ($totals['messages_received'] ?? 0));

        return sprintf("master %d, up %s, %d worker%s, %d task worker%s%s%s; %d requests served, %d in flight, %d WebSocket%s open, %d shed, %d abandoned, %d slow, %d failed TLS handshake%s%s; restarts %d, recycles %d\n",
            $master['pid'], self::duration((float) $master['uptime']),
            $ready['worker'], $ready['worker'] === 1 ? '' : 's',
            $ready['task_worker'], $ready['task_worker'] === 1 ? '' : 's',
            $processes,
            $others === [] ? '' : ' (and ' . implode(', ', $others) . ')',
            $totals['requests'] ?? 0, $totals['in_flight'] ?? 0, $websockets, $websockets === 1 ? '' : 's',
            $totals['shed'] ?? 0, $totals['abandoned'] ?? 0, $totals['slow'] ?? 0, $tlsFailures, $tlsFailures === 1 ? '' : 's',
            $messages, $doc['restarts'] ?? 0, $doc['recycles'] ?? 0);
    }

    private static function role(string $role): string
    {
        return match ($role) {
            'task_worker' => 'task',
            'user_process' => 'process',
            default => $role,
        };
    }

    /** @param list<list<string>> $rows */
    private static function table(array $rows): string
    {
        $widths = [];
        foreach ($rows as $row) {
            foreach ($row as $i => $cell) {
                $widths[$i] = max($widths[$i] ?? 0, strlen($cell));
            }
        }
        $text = '';
        foreach ($rows as $row) {
            $cells = [];
            foreach ($row as $i => $cell) {
                $cells[] = str_pad($cell, $widths[$i]);
            }
            $text .= rtrim(implode('  ', $cells)) . "\n";
        }

        return $text;
    }

    /** Handlers allowed at once now; "-" for none (no --concurrency, or a task worker). */
    private static function limit(int $limit): string
    {
        return $limit > 0 ? (string) $limit : '-';
    }

    public static function duration(float $seconds): string
    {
        $s = (int) $seconds;

        return match (true) {
            $s < 60 => sprintf('%.1fs', $seconds),
            $s < 3600 => sprintf('%dm%02ds', intdiv($s, 60), $s % 60),
            $s < 86400 => sprintf('%dh%02dm', intdiv($s, 3600), intdiv($s % 3600, 60)),
            default => sprintf('%dd%02dh', intdiv($s, 86400), intdiv($s % 86400, 3600)),
        };
    }

    public static function bytes(int $bytes): string
    {
        foreach (['B', 'KiB', 'MiB', 'GiB'] as $i => $unit) {
            if ($bytes < 1024 ** ($i + 1) || $unit === 'GiB') {
                return $i === 0 ? "$bytes B" : sprintf('%.1f %s', $bytes / 1024 ** $i, $unit);
            }
        }

        return "$bytes B";
    }
}
