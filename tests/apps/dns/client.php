<?php

/*
 * Host name lookups inside coroutines, against tests/apps/dns/server.php:
 * run by tests/DnsResolutionTest.php in the network namespace that server
 * answers in. Prints what it saw as JSON; the test asserts on it.
 */

declare(strict_types=1);

use Rapier\CanceledException;
use Rapier\Coroutine;

use function Rapier\go;
use function Rapier\run;

// Never accepts: a backlog for every connection the scenarios make.
$backlog = stream_context_create(['socket' => ['backlog' => 1024]]);
$listener = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, context: $backlog);
$port = (int) substr(strrchr(stream_socket_get_name($listener, false), ':'), 1);

/** Connects to $host:$port; what happened, and how long it took. */
function attempt(string $host, int $port, float $timeout): array
{
    $started = microtime(true);
    error_clear_last();
    $client = @stream_socket_client("tcp://$host:$port", $errno, $errstr, $timeout);
    $result = [
        'connected' => $client !== false,
        'errno' => $errno,
        'errstr' => $errstr,
        'warning' => error_get_last()['message'] ?? null,
        'seconds' => microtime(true) - $started,
    ];
    if ($client !== false) {
        fclose($client);
    }

    return $result;
}

/**
 * Runs $work in a Rapier\run() beside a coroutine ticking every 10 ms: the
 * ticks it counted show whether the loop went on while $work waited.
 */
function beside_ticker(callable $work): array
{
    $out = ['ticks' => 0];
    run(static function () use ($work, &$out): void {
        $done = false;
        go(static function () use (&$out, &$done): void {
            while (!$done) {
                Coroutine::sleep(0.01);
                $out['ticks']++;
            }
        });
        $started = microtime(true);
        $out['result'] = $work();
        $out['seconds'] = microtime(true) - $started;
        $done = true;
    });

    return $out;
}

/** $count lookups of slow<ms>-<i> names at once, each in its coroutine. */
function concurrent(int $count, int $ms, int $port): array
{
    $results = [];
    $wait = new Rapier\WaitGroup();
    for ($i = 0; $i < $count; $i++) {
        $wait->add();
        go(static function () use ($i, $ms, $port, &$results, $wait): void {
            $results[$i] = attempt("slow$ms-$i.rapier.test", $port, 5.0);
            $wait->done();
        });
    }
    $wait->wait();

    return [
        'connected' => count(array_filter($results, static fn (array $r): bool => $r['connected'])),
        'errors' => array_values(array_filter(array_column($results, 'errstr'))),
    ];
}

$report = [];

// Outside a coroutine a lookup blocks, as in stock PHP: the baseline.
$report['blocking'] = attempt('slow300-blocking.rapier.test', $port, 5.0);

$report['concurrent'] = beside_ticker(static fn (): array => concurrent(10, 300, $port));

// More lookups than threads: the rest queue for one.
$report['queued'] = beside_ticker(static fn (): array => concurrent(40, 200, $port));

$report['nxdomain'] = [
    'coroutine' => beside_ticker(static fn (): array => attempt('nx-1.rapier.test', $port, 5.0))['result'],
    'stock' => attempt('nx-1.rapier.test', $port, 5.0),
];

// A name that never resolves: the connect timeout bounds the lookup too.
$report['timeout'] = beside_ticker(static fn (): array => attempt('never-timeout.rapier.test', $port, 0.3));

// Canceled while its lookup runs: the coroutine gets CanceledException, the
// lookup is abandoned, and the process exits cleanly while its thread still waits.
$report['canceled'] = beside_ticker(static function () use ($port): array {
    $seen = null;
    $victim = go(static function () use ($port, &$seen): void {
        try {
            attempt('never-canceled.rapier.test', $port, 10.0);
            $seen = 'returned';
        } catch (CanceledException $e) {
            $seen = get_class($e) . ': ' . $e->getMessage();
        }
    });
    Coroutine::sleep(0.05);
    Coroutine::cancel($victim);
    Coroutine::sleep(0.01);

    return ['seen' => $seen];
});

// The lookups above that were given up still run; a fresh one is not held up by them.
$report['after'] = beside_ticker(static fn (): array => attempt('after.rapier.test', $port, 5.0));

echo json_encode($report, JSON_PRETTY_PRINT), "\n";
