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
 * ticks it counted show whether the loop went on while $work waited. After
 * its tenth tick the ticker calls $atTen, if given.
 */
function beside_ticker(callable $work, ?callable $atTen = null): array
{
    $out = ['ticks' => 0];
    run(static function () use ($work, $atTen, &$out): void {
        $done = false;
        go(static function () use ($atTen, &$out, &$done): void {
            while (!$done) {
                Coroutine::sleep(0.01);
                if (++$out['ticks'] === 10 && $atTen !== null) {
                    $atTen();
                }
            }
        });
        $started = microtime(true);
        $out['result'] = $work();
        $out['seconds'] = microtime(true) - $started;
        $done = true;
    });

    return $out;
}

/** Lets the DNS server answer its held<n>- names (server.php). */
function release(): void
{
    $server = stream_socket_client('udp://127.0.0.1:53');
    fwrite($server, 'release');
    fclose($server);
}

/** The most names the DNS server had waiting at once since the last call. */
function peak(): int
{
    return (int) substr(strrchr(gethostbyname('peak.rapier.test'), '.'), 1);
}

/** $count lookups of $prefix-<i> names at once, each in its coroutine. */
function concurrent(int $count, string $prefix, int $port): array
{
    $results = [];
    $wait = new Rapier\WaitGroup();
    for ($i = 0; $i < $count; $i++) {
        $wait->add();
        go(static function () use ($i, $prefix, $port, &$results, $wait): void {
            $results[$i] = attempt("$prefix-$i.rapier.test", $port, 10.0);
            $wait->done();
        });
    }
    $wait->wait();

    return [
        'connected' => count(array_filter($results, static fn (array $r): bool => $r['connected'])),
        'errors' => array_values(array_filter(array_column($results, 'errstr'))),
    ];
}

/**
 * Connects to PostgreSQL at $host, with ext/pgsql or PDO, where nothing
 * listens (port 1): once the name resolves, libpq is refused. libpq's
 * error, which says what the name resolved to.
 */
function pg_attempt(string $host, bool $pdo): string
{
    $dsn = "host=$host port=1 dbname=x user=x connect_timeout=10";
    if ($pdo) {
        try {
            new PDO("pgsql:$dsn");
        } catch (PDOException $e) {
            return $e->getMessage();
        }

        return 'connected';
    }
    error_clear_last();

    return @pg_connect($dsn, PGSQL_CONNECT_FORCE_NEW) === false ? (string) error_get_last()['message'] : 'connected';
}

/** $count PostgreSQL connects to $prefix-<i> names at once, half with PDO; their errors. */
function pg_concurrent(int $count, string $prefix): array
{
    $errors = [];
    $wait = new Rapier\WaitGroup();
    for ($i = 0; $i < $count; $i++) {
        $wait->add();
        go(static function () use ($i, $prefix, &$errors, $wait): void {
            $errors[$i] = pg_attempt("$prefix-$i.rapier.test", $i % 2 === 1);
            $wait->done();
        });
    }
    $wait->wait();
    ksort($errors);

    return $errors;
}

/**
 * Runs $lookup (one that never resolves) in a coroutine beside the ticker
 * and cancels it while it waits: what it saw, the exception or what it
 * returned.
 */
function canceled_during(callable $lookup): array
{
    return beside_ticker(static function () use ($lookup): array {
        $seen = null;
        $victim = go(static function () use ($lookup, &$seen): void {
            try {
                $seen = 'returned: ' . json_encode($lookup());
            } catch (CanceledException $e) {
                $seen = get_class($e) . ': ' . $e->getMessage();
            }
        });
        Coroutine::sleep(0.05);
        Coroutine::cancel($victim);
        Coroutine::sleep(0.01);

        return ['seen' => $seen];
    });
}

$report = [];

// Outside a coroutine a lookup blocks, as in stock PHP: the baseline.
$report['blocking'] = attempt('slow300-blocking.rapier.test', $port, 5.0);

// The server answers none of these ten until all ten wait at once and the
// ticker has ticked ten times: they succeed only if they overlap and the
// loop runs while they wait.
$report['concurrent'] = beside_ticker(static fn (): array => concurrent(10, 'held10', $port), release(...));
$report['concurrent']['peak'] = peak();

// More lookups than threads: the rest queue for one. The server holds the
// first ones until sixteen wait; the peak shows no more ever ran at once.
$report['queued'] = beside_ticker(static fn (): array => concurrent(40, 'held16', $port), release(...));
$report['queued']['peak'] = peak();

$report['nxdomain'] = [
    'coroutine' => beside_ticker(static fn (): array => attempt('nx-1.rapier.test', $port, 5.0))['result'],
    'stock' => attempt('nx-1.rapier.test', $port, 5.0),
];

// A name that never resolves: the connect timeout bounds the lookup too
// (glibc would give up only after 30 s, with another error).
$report['timeout'] = beside_ticker(static fn (): array => attempt('never-timeout.rapier.test', $port, 0.3));

// Canceled while its lookup runs: the coroutine gets CanceledException, the
// lookup is abandoned, and the process exits cleanly while its thread still waits.
$report['canceled'] = canceled_during(static fn (): array => attempt('never-canceled.rapier.test', $port, 10.0));

// libpq resolves a connection string's host itself (getaddrinfo): the
// same kind of held names (eight, answered once all eight wait), through
// pg_connect() and PDO.
if (function_exists('pg_connect') && in_array('pgsql', PDO::getAvailableDrivers(), true)) {
    $report['pgsql'] = beside_ticker(static fn (): array => pg_concurrent(8, 'held8'), release(...));
    $report['pgsql']['peak'] = peak();
    $report['pgsql_nxdomain'] = [
        'coroutine' => beside_ticker(static fn (): array => [pg_attempt('nx-pg.rapier.test', false),
            pg_attempt('nx-pg.rapier.test', true)])['result'],
        'stock' => [pg_attempt('nx-pg.rapier.test', false), pg_attempt('nx-pg.rapier.test', true)],
    ];
    $report['pgsql_canceled'] = canceled_during(static fn (): string => pg_attempt('never-pg.rapier.test', false));
}

// The lookups above that were given up still run, for 30 s; a fresh one is
// not held up by them, or its 10 s connect timeout would end it first.
$report['after'] = beside_ticker(static fn (): array => attempt('after.rapier.test', $port, 10.0));

echo json_encode($report, JSON_PRETTY_PRINT), "\n";
