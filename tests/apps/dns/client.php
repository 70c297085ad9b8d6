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

/**
 * PHP's DNS functions on names and addresses the server answers (and does
 * not): what each call returned, and the warning it raised.
 */
function dns_functions(): array
{
    $calls = [
        'gethostbyname' => static fn () => gethostbyname('plain.rapier.test'),
        'gethostbyname nx' => static fn () => gethostbyname('nx-name.rapier.test'),
        'gethostbynamel' => static fn () => gethostbynamel('multi-list.rapier.test'),
        'gethostbynamel nx' => static fn () => gethostbynamel('nx-list.rapier.test'),
        'gethostbyaddr' => static fn () => gethostbyaddr('10.1.2.3'),
        'gethostbyaddr nx' => static fn () => gethostbyaddr('203.0.113.5'),
        'dns_get_record' => static fn () => dns_get_record('plain.rapier.test', DNS_A | DNS_MX | DNS_TXT),
        'dns_get_record extra' => static function (): array {
            $records = dns_get_record('multi-extra.rapier.test', DNS_A, $authoritative, $additional);

            return [$records, $authoritative, $additional];
        },
        'dns_get_record nx' => static fn () => dns_get_record('nx-record.rapier.test', DNS_MX),
        'checkdnsrr' => static fn () => [checkdnsrr('plain.rapier.test', 'TXT'), checkdnsrr('nx-check.rapier.test')],
        'getmxrr' => static function (): array {
            $found = getmxrr('plain.rapier.test', $hosts, $weights);

            return [$found, $hosts, $weights];
        },
    ];
    $results = [];
    foreach ($calls as $name => $call) {
        error_clear_last();
        $result = @$call();
        $results[$name] = ['result' => $result, 'warning' => error_get_last()['message'] ?? null];
    }

    return $results;
}

/**
 * Runs each of $calls in a coroutine of its own, all at once: what each
 * returned, by key.
 *
 * @param array<int, callable(): mixed> $calls
 */
function at_once(array $calls): array
{
    $results = [];
    $wait = new Rapier\WaitGroup();
    foreach ($calls as $i => $call) {
        $wait->add();
        go(static function () use ($i, $call, &$results, $wait): void {
            $results[$i] = $call();
            $wait->done();
        });
    }
    $wait->wait();
    ksort($results);

    return $results;
}

/**
 * Six of PHP's DNS functions at once, each in its coroutine, on held6
 * names (and the address held like them): what each returned.
 */
function dns_functions_at_once(): array
{
    $calls = [
        static fn () => gethostbyname('held6-0.rapier.test'),
        static fn () => gethostbynamel('held6-1.rapier.test'),
        static fn () => gethostbyaddr('198.18.6.2'),
        static fn () => array_column(dns_get_record('held6-3.rapier.test', DNS_MX), 'target'),
        static fn () => checkdnsrr('held6-4.rapier.test', 'TXT'),
        static fn () => getmxrr('held6-5.rapier.test', $hosts) ? $hosts : false,
    ];

    return at_once($calls);
}

/**
 * ext/sockets' ways to a host name at once, each in its coroutine, on held3
 * names: socket_connect() and socket_sendto() on IPv4 sockets (PHP's
 * php_network_gethostbyname()) and socket_addrinfo_lookup() (getaddrinfo()).
 */
function sockets_at_once(int $port): array
{
    $calls = [
        static function () use ($port): bool {
            $socket = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
            return socket_connect($socket, 'held3-0.rapier.test', $port);
        },
        static function () use ($port): int|false {
            $socket = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
            return socket_sendto($socket, 'x', 1, 0, 'held3-1.rapier.test', $port);
        },
        static fn (): array => array_map(
            static fn (AddressInfo $info): string => socket_addrinfo_explain($info)['ai_addr']['sin_addr'],
            socket_addrinfo_lookup('held3-2.rapier.test', (string) $port, [
                'ai_family' => AF_INET,
                'ai_socktype' => SOCK_STREAM,
            ]),
        ),
    ];

    return at_once($calls);
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

// PHP's DNS functions: what they return in a coroutine is what they return
// outside one; six of them wait at once (none is answered before all six
// ask); with HOOK_DNS off one blocks the loop; a cancel ends each kind.
$report['dns_functions'] = [
    'coroutine' => beside_ticker(dns_functions(...))['result'],
    'stock' => dns_functions(),
];
$report['dns_at_once'] = beside_ticker(dns_functions_at_once(...), release(...));
$report['dns_at_once']['peak'] = peak();
$report['dns_hooked'] = beside_ticker(static fn (): string => gethostbyname('slow300-hooked.rapier.test'));
$report['dns_not_hooked'] = beside_ticker(static function (): string {
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_DNS);
    try {
        return gethostbyname('slow300-not-hooked.rapier.test');
    } finally {
        Rapier\Runtime::enableHooks();
    }
});
$report['dns_canceled'] = [
    'gethostbyname' => canceled_during(static fn (): string => gethostbyname('never-byname.rapier.test')),
    'gethostbyaddr' => canceled_during(static fn (): string => gethostbyaddr('192.0.2.7')),
    'dns_get_record' => canceled_during(
        static fn (): array => dns_get_record('never-record.rapier.test', DNS_A | DNS_MX),
    ),
];

// ext/sockets: three lookups at once (none answered before all three
// wait), and a cancel of each kind of lookup.
if (function_exists('socket_connect')) {
    $report['sockets_at_once'] = beside_ticker(static fn (): array => sockets_at_once($port), release(...));
    $report['sockets_at_once']['peak'] = peak();
    $report['sockets_canceled'] = [
        'socket_connect' => canceled_during(static fn (): bool => @socket_connect(
            socket_create(AF_INET, SOCK_STREAM, SOL_TCP),
            'never-socket.rapier.test',
            $port,
        )),
        'socket_addrinfo_lookup' => canceled_during(
            static fn (): array|false => @socket_addrinfo_lookup('never-addrinfo.rapier.test'),
        ),
    ];
}

// The lookups above that were given up still run, for 30 s; a fresh one is
// not held up by them, or its 10 s connect timeout would end it first.
$report['after'] = beside_ticker(static fn (): array => attempt('after.rapier.test', $port, 10.0));

echo json_encode($report, JSON_PRETTY_PRINT), "\n";
