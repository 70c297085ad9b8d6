<?php

/*
 * What the Rapier bench servers (rapier.php, rapier-lumen.php) read from
 * the environment run.sh gives them, in one place so both run alike.
 */

declare(strict_types=1);

/** A variable of the environment, or null when it is unset or empty ("0" is a value). */
function bench_env(string $name): ?string
{
    $value = getenv($name);

    return $value === false || $value === '' ? null : $value;
}

function bench_int_env(string $name, int $default): int
{
    $value = bench_env($name);

    return $value === null ? $default : (int) $value;
}

/** A number of seconds from the environment, or $default. */
function bench_seconds_env(string $name, float $default): float
{
    $value = bench_env($name);

    return $value === null ? $default : (float) $value;
}

/**
 * Rapier\Http\Server's options: BENCH_RAPIER_WORKERS (2),
 * BENCH_RAPIER_CONCURRENCY ($concurrency by default; 0: no limit); with a
 * concurrency limit, BENCH_RAPIER_QUEUE_TIMEOUT (seconds, 1.5; 0: none);
 * with a limit above 1, BENCH_RAPIER_LATENCY_TARGET (seconds, 0.03; 0:
 * none), which adapts the limit below it (docs/http-server.md); HTTPS with
 * BENCH_RAPIER_TLS_CERT_FILE and BENCH_RAPIER_TLS_KEY_FILE (run.sh's
 * rapier-tls), TLS 1.2 and 1.3 as nginx-tls offers them (tls_min_version's
 * default).
 *
 * @return array<string, int|float|string>
 */
function bench_server_options(int $concurrency): array
{
    $concurrency = bench_int_env('BENCH_RAPIER_CONCURRENCY', $concurrency);
    // wrk's 2 s timeout less half a second for the handler and the answer:
    // a request is refused only when it could hardly be answered before its
    // client gives up. 100 queries at 400 connections wait about a second
    // on either server (400 clients, about 400 answers a second); at 1 s
    // Rapier refused 0.6-16% of them, which php-fpm answered within 1.8 s; at
    // 1.5 s none, and still no socket error at 10,000 connections.
    $queueTimeout = bench_seconds_env('BENCH_RAPIER_QUEUE_TIMEOUT', 1.5);
    $options = ['workers' => bench_int_env('BENCH_RAPIER_WORKERS', 2), 'concurrency' => $concurrency];
    if ($concurrency > 0 && $queueTimeout > 0) {
        $options['queue_timeout'] = $queueTimeout;
    }
    // A few times the slowest endpoint's handler time alone (slow I/O's 10
    // ms), as docs/http-server.md advises. At 0.1 the limit settled at
    // 12-26 per worker on 100 queries, several times what MariaDB could
    // serve on two cores; at 0.03 it settles near 6, and the workers and
    // MariaDB both spend less per request (docs/benchmarks.md).
    $latencyTarget = bench_seconds_env('BENCH_RAPIER_LATENCY_TARGET', 0.03);
    if ($concurrency > 1 && $latencyTarget > 0) {
        $options['latency_target'] = $latencyTarget;
    }
    $certFile = bench_env('BENCH_RAPIER_TLS_CERT_FILE');
    if ($certFile !== null) {
        $options['tls_cert_file'] = $certFile;
        $options['tls_key_file'] = bench_env('BENCH_RAPIER_TLS_KEY_FILE') ?? $certFile;
    }

    return $options;
}
