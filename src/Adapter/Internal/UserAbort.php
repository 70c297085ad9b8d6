<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Rapier\Coroutine;

use function Rapier\go;

/**
 * php-fpm's user abort, for a streamed response: with ignore_user_abort
 * off (PHP's default), a script whose client has left is ended by its next
 * output. Code written for php-fpm relies on it: an event-stream loop that
 * never checks connection_aborted() stops there, and under an adapter,
 * which serves one request at a time, it would otherwise hold the worker
 * for good.
 *
 * An output buffer's callback cannot end the script (an exception thrown
 * there sends its output to the worker's stdout and disables the buffer),
 * so the output that fails asks for the stream's coroutine to be canceled:
 * its next wait (the loop's sleep, a query, a read) throws
 * CanceledException, which the sender then takes as the end of the stream.
 * The cancel comes from a coroutine of its own, which runs once the stream
 * waits; a stream that ends first is left alone.
 *
 * @internal
 */
final class UserAbort
{
    private bool $streaming = true;

    private bool $asked = false;

    private bool $canceled = false;

    public function __construct(private readonly int $coroutine)
    {
    }

    /** The stream's output did not reach its client: it ends at its next wait, unless ignore_user_abort is on. */
    public function outputFailed(): void
    {
        if ($this->asked || $this->canceled || ignore_user_abort()) {
            return;
        }
        $this->asked = true;
        go(function (): void {
            $this->asked = false;
            // Not waiting (its wait was answered and it has yet to run): the next failed output asks again.
            $this->canceled = $this->streaming && Coroutine::cancel($this->coroutine);
        });
    }

    /** Whether a CanceledException out of the stream is this abort's. */
    public function canceled(): bool
    {
        return $this->canceled;
    }

    /** The stream returned or threw: a cancel asked for and not yet made is dropped. */
    public function streamEnded(): void
    {
        $this->streaming = false;
    }
}
