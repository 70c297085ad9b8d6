<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\StatusTable;

/** `rapier status` without --json: the status document as a table. */
final class StatusTableTest extends TestCase
{
    public function testRendersASummaryAndARowPerProcess(): void
    {
        $doc = [
            'master' => ['pid' => 1200, 'started_at' => 1700000000.123, 'uptime' => 7503.5],
            'generations' => ['worker' => 3, 'task_worker' => 1],
            'restarts' => 1,
            'recycles' => 4,
            'workers' => [
                ['pid' => 1311, 'role' => 'worker', 'index' => 0, 'generation' => 3, 'state' => 'ready', 'uptime' => 724.2,
                    'requests' => 5120, 'in_flight' => 2, 'connections' => 40, 'websockets' => 12, 'shed' => 17, 'abandoned' => 3, 'slow' => 6,
                    'tls_handshake_failures' => 1, 'concurrency_limit' => 48, 'memory' => 2097152, 'rss' => 23412736],
                ['pid' => 1313, 'role' => 'task_worker', 'index' => 0, 'generation' => 1, 'state' => 'draining', 'uptime' => 3.25,
                    'requests' => 0, 'in_flight' => 0, 'connections' => 0, 'shed' => 0, 'abandoned' => 0, 'concurrency_limit' => 0,
                    'memory' => 900, 'rss' => 11534336],
            ],
            'totals' => ['processes' => 2, 'workers' => 1, 'task_workers' => 1, 'requests' => 90210, 'in_flight' => 2,
                'connections' => 40, 'websockets' => 12, 'shed' => 21, 'abandoned' => 5, 'slow' => 7, 'tls_handshake_failures' => 30,
                'rss' => 34947072],
        ];

        $this->assertSame(
            "master 1200, up 2h05m, 1 worker, 0 task workers (and 1 draining); 90210 requests served, 2 in flight, 12 WebSockets open, 21 shed, 5 abandoned, 7 slow, 30 failed TLS handshakes; restarts 1, recycles 4\n"
            . "PID   ROLE    #  GEN  STATE     UPTIME  REQUESTS  IN-FLIGHT  LIMIT  SHED  ABANDONED  SLOW  TLS-FAIL  CONNS  WS  MEMORY   RSS\n"
            . "1311  worker  0  3    ready     12m04s  5120      2          48     17    3          6     1         40     12  2.0 MiB  22.3 MiB\n"
            . "1313  task    0  1    draining  3.2s    0         0          -      0     0          0     0         0      0   900 B    11.0 MiB\n",
            StatusTable::render($doc),
        );
        $doc['totals']['websockets'] = 1;
        $doc['totals']['tls_handshake_failures'] = 1;
        $this->assertStringContainsString(', 2 in flight, 1 WebSocket open, 21 shed, 5 abandoned, 7 slow, 1 failed TLS handshake; ',
            StatusTable::render($doc));
        $doc['totals']['messages_sent'] = 2019;
        $doc['totals']['messages_received'] = 2017;
        $this->assertStringContainsString(', 1 failed TLS handshake, 2019 messages between workers (2017 handled); restarts 1',
            StatusTable::render($doc), 'messages are named once there are some');
    }

    public function testNamesUserProcessesOnlyWhereThereAreSome(): void
    {
        $row = fn (int $pid, string $role, int $index): array => ['pid' => $pid, 'role' => $role, 'index' => $index,
            'generation' => 1, 'state' => 'ready', 'uptime' => 1.0, 'requests' => 0, 'in_flight' => 0, 'connections' => 0,
            'shed' => 0, 'abandoned' => 0, 'concurrency_limit' => 0, 'memory' => 0, 'rss' => 1024];
        $doc = [
            'master' => ['pid' => 10, 'uptime' => 1.0],
            'workers' => [$row(11, 'worker', 0), $row(12, 'user_process', 0), $row(13, 'user_process', 1)],
        ];

        $text = StatusTable::render($doc);

        $this->assertStringStartsWith('master 10, up 1.0s, 1 worker, 0 task workers, 2 user processes; ', $text);
        $this->assertMatchesRegularExpression('/^12 +process +0 /m', $text);
        $this->assertMatchesRegularExpression('/^13 +process +1 /m', $text);
        $doc['workers'] = [$row(11, 'worker', 0), $row(12, 'user_process', 0)];
        $this->assertStringStartsWith('master 10, up 1.0s, 1 worker, 0 task workers, 1 user process; ', StatusTable::render($doc));
    }
}
