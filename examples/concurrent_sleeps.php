<?php

/*
 * Five coroutines sleep for different times at once. Rapier\Coroutine::sleep()
 * (and, with the runtime hooks on, PHP's own sleep() and usleep()) suspends
 * only the calling coroutine, so the whole run takes as long as the longest
 * sleep, not the sum of them.
 *
 *     php -d extension=ext/modules/rapier.so examples/concurrent_sleeps.php
 */

declare(strict_types=1);

use Rapier\Coroutine;

use function Rapier\go;
use function Rapier\run;

$start = hrtime(true);
$elapsed = static fn (): string => sprintf('%4.0f ms', (hrtime(true) - $start) / 1e6);

run(static function () use ($elapsed): void {
    foreach ([0.5, 0.1, 0.4, 0.2, 0.3] as $seconds) {
        go(static function () use ($seconds, $elapsed): void {
            $id = Coroutine::id();
            echo $elapsed(), "  coroutine $id sleeps {$seconds} s\n";
            if ($seconds === 0.3) {
                // With the runtime hooks on, PHP's usleep() yields too.
                usleep(300_000);
            } else {
                Coroutine::sleep($seconds);
            }
            echo $elapsed(), "  coroutine $id woke\n";
        });
    }
});

echo $elapsed(), "  all done: 1.5 s of sleeping took about 0.5 s\n";
