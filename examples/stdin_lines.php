<?php

/*
 * A line-by-line filter that keeps working while its input is slow. One
 * coroutine reads STDIN and hands each line to three workers over a
 * Rapier\Channel; a heartbeat coroutine reports progress every 0.25 s. With
 * Rapier\HOOK_STDIO (on by default), fgets(STDIN) waits in the event loop
 * while nothing has come yet, so the workers and the heartbeat go on
 * meanwhile; in plain PHP it would hold up the whole process.
 *
 *     (for w in alpha beta gamma delta epsilon; do echo $w; sleep 0.3; done) \
 *         | php -d extension=ext/modules/rapier.so examples/stdin_lines.php
 *
 * Started from a terminal with nothing piped in, it makes that slow input
 * itself (a popen() pipe, which waits in the loop the same way).
 */

declare(strict_types=1);

use Rapier\Channel;
use Rapier\Coroutine;
use Rapier\WaitGroup;

use function Rapier\go;
use function Rapier\run;

const WORKERS = 3;

$input = STDIN;
if (stream_isatty(STDIN)) {
    $input = popen('for w in alpha beta gamma delta epsilon; do echo $w; sleep 0.3; done', 'r');
}
$start = hrtime(true);
$elapsed = static fn (): string => sprintf('%5.0f ms', (hrtime(true) - $start) / 1e6);

run(static function () use ($input, $elapsed): void {
    $lines = new Channel(WORKERS);
    $working = new WaitGroup();
    $done = 0;
    $finished = false;

    for ($w = 1; $w <= WORKERS; $w++) {
        $working->add();
        go(static function () use ($w, $lines, $working, $elapsed, &$done): void {
            while (($line = $lines->pop()) !== false) {
                Coroutine::sleep(0.5);   // stands for a query or an HTTP call per line
                echo $elapsed(), "  worker $w: ", strtoupper($line), "\n";
                $done++;
            }
            $working->done();
        });
    }

    go(static function () use ($elapsed, &$done, &$finished): void {
        while (!$finished) {
            echo $elapsed(), "  ($done done so far)\n";
            Coroutine::sleep(0.25);
        }
    });

    while (($line = fgets($input)) !== false) {
        $lines->push(rtrim($line, "\n"));
    }
    $lines->close();
    $working->wait();
    $finished = true;
    echo $elapsed(), "  end of input, $done lines\n";
});
