<?php

/*
 * Waits until a server just started answers HTTP, or gives up when one of
 * its processes has died or the timeout has passed (exit status 1).
 *
 *     php wait.php URL TIMEOUT_SECONDS PID...
 */

declare(strict_types=1);

require __DIR__ . '/Probe.php';

if ($argc < 4) {
    fwrite(STDERR, "usage: php wait.php URL TIMEOUT_SECONDS PID...\n");
    exit(2);
}

exit(Bench\Probe::wait($argv[1], (float) $argv[2], array_map('intval', array_slice($argv, 3))) ? 0 : 1);
