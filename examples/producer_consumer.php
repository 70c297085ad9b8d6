<?php

/*
 * Producers and consumers over a buffered Rapier\Channel. push() waits while
 * the buffer is full and pop() while it is empty, so the fast producers are
 * paced by the slower consumers. When every producer is done (a WaitGroup
 * counts them), the channel is closed: consumers drain what is left, then
 * pop() returns false and they stop. Every value arrives exactly once.
 *
 *     php -d extension=ext/modules/rapier.so examples/producer_consumer.php
 */

declare(strict_types=1);

use Rapier\Channel;
use Rapier\Coroutine;
use Rapier\WaitGroup;

use function Rapier\go;
use function Rapier\run;

const PRODUCERS = 3;
const CONSUMERS = 2;
const JOBS_PER_PRODUCER = 4;

run(static function (): void {
    $jobs = new Channel(2);
    $producing = new WaitGroup();
    $consuming = new WaitGroup();
    $totals = array_fill(0, CONSUMERS, 0);

    for ($p = 0; $p < PRODUCERS; $p++) {
        $producing->add();
        go(static function () use ($p, $jobs, $producing): void {
            for ($n = 1; $n <= JOBS_PER_PRODUCER; $n++) {
                $jobs->push(['producer' => $p, 'value' => $p * 100 + $n]);
            }
            echo "producer $p finished\n";
            $producing->done();
        });
    }

    for ($c = 0; $c < CONSUMERS; $c++) {
        $consuming->add();
        go(static function () use ($c, $jobs, $consuming, &$totals): void {
            while (($job = $jobs->pop()) !== false) {
                // Pretend each job takes some work.
                Coroutine::sleep(0.01);
                $totals[$c] += $job['value'];
                echo "consumer $c got {$job['value']} from producer {$job['producer']}\n";
            }
            echo "consumer $c stops: channel closed and empty\n";
            $consuming->done();
        });
    }

    $producing->wait();
    $jobs->close();
    $consuming->wait();

    $expected = 0;
    for ($p = 0; $p < PRODUCERS; $p++) {
        for ($n = 1; $n <= JOBS_PER_PRODUCER; $n++) {
            $expected += $p * 100 + $n;
        }
    }
    printf("consumed %s, sum %d (produced %d)\n", json_encode($totals), array_sum($totals), $expected);
});
