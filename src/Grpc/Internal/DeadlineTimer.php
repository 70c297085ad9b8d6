<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Coroutine;
use Rapier\Timer;

/**
 * Cancels a call's coroutine when its deadline passes: the handler's
 * current wait (a sleep, a query, a write) throws CanceledException, and
 * the server answers DEADLINE_EXCEEDED. stop() clears the timer when the
 * call ends first; a firing already queued then does nothing.
 *
 * @internal
 */
final class DeadlineTimer
{
    private ?int $timerId;
    private bool $expired = false;
    private bool $stopped = false;

    public function __construct(float $seconds, int $coroutineId)
    {
        $this->timerId = Timer::after($seconds, function () use ($coroutineId): void {
            $this->timerId = null;
            if ($this->stopped) {
                return;
            }
            $this->expired = true;
            // False when the wait was answered just now: the handler goes on, and its answer is replaced.
            Coroutine::cancel($coroutineId);
        });
    }

    public function expired(): bool
    {
        return $this->expired;
    }

    public function stop(): void
    {
        $this->stopped = true;
        if ($this->timerId !== null) {
            Timer::clear($this->timerId);
            $this->timerId = null;
        }
    }
}
