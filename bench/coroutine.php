<?php

/*
 * Coroutine micro-benchmark: the cost of Rapier's basic operations beside
 * plain PHP Fibers, the floor Rapier builds on. Reports nanoseconds per
 * operation, the best of several rounds (the least disturbed by other load).
 * A measurement, not a test: nothing here passes or fails.
 *
 *     php -d extension=ext/modules/rapier.so bench/coroutine.php [--iterations=N] [--rounds=R]
 */

declare(strict_types=1);

use Rapier\Channel;
use Rapier\Coroutine;

use function Rapier\go;
use function Rapier\run;

/*
 * Coroutines are spawned in batches and left to finish before the next
 * batch: spawning all of them first would measure memory growth (each live
 * coroutine holds a fiber and its VM stack) rather than the spawn itself.
 */
const SPAWN_BATCH = 1000;

/** @return array{iterations: int, rounds: int} */
function options(array $argv): array
{
    $options = getopt('', ['iterations:', 'rounds:']);
    $iterations = (int) ($options['iterations'] ?? 100_000);
    $rounds = (int) ($options['rounds'] ?? 3);
    if ($iterations < 1 || $rounds < 1) {
        fwrite(STDERR, "usage: php {$argv[0]} [--iterations=N] [--rounds=R]   (both >= 1)\n");
        exit(2);
    }

    return ['iterations' => $iterations, 'rounds' => $rounds];
}

/** Nanoseconds per operation of $body($n), best of $rounds. */
function measure(callable $body, int $n, int $rounds): float
{
    $best = INF;
    for ($r = 0; $r < $rounds; $r++) {
        gc_collect_cycles();
        $start = hrtime(true);
        $body($n);
        $best = min($best, (hrtime(true) - $start) / $n);
    }

    return $best;
}

function fiber_start_finish(int $n): void
{
    $fn = static function (): void {
    };
    for ($i = 0; $i < $n; $i++) {
        $fiber = new Fiber($fn);
        $fiber->start();
    }
}

function coroutine_spawn_finish(int $n): void
{
    run(static function () use ($n): void {
        $fn = static function (): void {
        };
        for ($done = 0; $done < $n; $done += SPAWN_BATCH) {
            $batch = min(SPAWN_BATCH, $n - $done);
            for ($i = 0; $i < $batch; $i++) {
                go($fn);
            }
            // Lets the batch run to completion before the next one.
            while (Coroutine::count() > 1) {
                Coroutine::sleep(0);
            }
        }
    });
}

function fiber_round_trip(int $n): void
{
    $fiber = new Fiber(static function (): void {
        while (true) {
            Fiber::suspend();
        }
    });
    $fiber->start();
    for ($i = 0; $i < $n; $i++) {
        $fiber->resume();
    }
}

function channel_ping_pong(int $n): void
{
    run(static function () use ($n): void {
        $ping = new Channel(0);
        $pong = new Channel(0);
        go(static function () use ($n, $ping, $pong): void {
            for ($i = 0; $i < $n; $i++) {
                $pong->push($ping->pop());
            }
        });
        for ($i = 0; $i < $n; $i++) {
            $ping->push($i);
            $pong->pop();
        }
    });
}

if (!extension_loaded('rapier')) {
    fwrite(STDERR, "The rapier extension is not loaded: php -d extension=ext/modules/rapier.so {$argv[0]}\n");
    exit(1);
}

['iterations' => $n, 'rounds' => $rounds] = options($argv);
$rows = [
    ['Fiber start + finish (baseline)', measure(fiber_start_finish(...), $n, $rounds)],
    ['Rapier\go() + coroutine return', measure(coroutine_spawn_finish(...), $n, $rounds)],
    ['Fiber resume + suspend (baseline)', measure(fiber_round_trip(...), $n, $rounds)],
    ['Channel(0) ping-pong round trip', measure(channel_ping_pong(...), $n, $rounds)],
];

printf("PHP %s, %d iterations, best of %d rounds\n\n", PHP_VERSION, $n, $rounds);
printf("%-36s %12s\n", 'operation', 'ns/op');
printf("%'-36s %'-12s\n", '', '');
foreach ($rows as [$name, $ns]) {
    printf("%-36s %12.0f\n", $name, $ns);
}
