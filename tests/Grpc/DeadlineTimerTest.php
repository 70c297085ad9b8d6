<?php

declare(strict_types=1);

namespace Rapier\Tests\Grpc;

use PHPUnit\Framework\TestCase;
use Rapier\CanceledException;
use Rapier\Coroutine;
use Rapier\Grpc\Internal\DeadlineTimer;

use function Rapier\run;

/**
 * The timer behind a call's deadline, in a plain Rapier\run(): a timer
 * still pending would keep run() going until it fired, so a prompt return
 * shows that none was left behind.
 */
final class DeadlineTimerTest extends TestCase
{
    public function testADeadlinePassingCancelsTheWaitAndLeavesNothingBehind(): void
    {
        $started = microtime(true);
        $seen = run(static function (): array {
            $deadline = new DeadlineTimer(0.1, Coroutine::id());
            try {
                Coroutine::sleep(10);
                $how = 'slept';
            } catch (CanceledException) {
                $how = 'canceled';
            } finally {
                $deadline->stop();
            }

            return [$how, $deadline->expired(), microtime(true)];
        });

        $this->assertSame('canceled', $seen[0]);
        $this->assertTrue($seen[1]);
        $this->assertEqualsWithDelta(0.1, $seen[2] - $started, 0.5);
        $this->assertLessThan(2.0, microtime(true) - $started);
    }

    public function testACallEndingFirstClearsTheTimer(): void
    {
        $started = microtime(true);
        $expired = run(static function (): bool {
            $deadline = new DeadlineTimer(30.0, Coroutine::id());
            Coroutine::sleep(0.01);
            $deadline->stop();

            return $deadline->expired();
        });

        $this->assertFalse($expired);
        $this->assertLessThan(5.0, microtime(true) - $started, 'run() did not wait for a 30 s timer');
    }

    public function testAFiringQueuedAfterTheCallEndedCancelsNothing(): void
    {
        $seen = run(static function (): array {
            $deadline = new DeadlineTimer(0.05, Coroutine::id());
            // Busy past the deadline without waiting: the timer fires, but its callback runs only after stop().
            $until = microtime(true) + 0.15;
            while (microtime(true) < $until) {
                // Spinning: usleep() would wait in the loop (hooked), and there the cancel would land.
            }
            $deadline->stop();
            try {
                Coroutine::sleep(0.1);   // a cancel that slipped through would land here
                $after = 'slept';
            } catch (CanceledException) {
                $after = 'canceled';
            }

            return [$after, $deadline->expired()];
        });

        $this->assertSame(['slept', false], $seen);
    }
}
