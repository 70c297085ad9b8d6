<?php

/** @generate-class-entries */

namespace Rapier {
    /** Base of every runtime failure Rapier reports. */
    class Exception extends \Exception
    {
    }

    /** Thrown into a waiting coroutine canceled by Rapier\Coroutine::cancel(). */
    final class CanceledException extends Exception
    {
    }

    /** Rapier\run() found coroutines waiting on what can never come. */
    final class DeadlockException extends Exception
    {
    }

    /**
     * exit() or die() was called inside Rapier\trap_exit(): the code it ran
     * ended there, and the script goes on.
     */
    final class ExitException extends Exception
    {
        /** The exit status exit() was given: 0 for exit(), die() and exit("a message"). */
        public function getStatus(): int {}
    }

    /** A new row was asked of a Rapier\Table whose every row is taken. */
    final class TableFullException extends Exception
    {
    }

    /** An operation with a timeout did not finish in time. */
    class TimeoutException extends Exception
    {
    }
}

namespace Rapier\Http {
    /**
     * A request body read while it arrives (request_buffering off) whose
     * rest will not come: the client left, max_body_size, a malformed
     * chunked body, or no byte for body_timeout (read_timeout); or that
     * Request::bufferBody() cannot keep on disk. The code is the HTTP
     * status that fits (400, 408, 413, 499, 507), which the server answers
     * with when the handler lets the exception escape.
     */
    final class BodyException extends \Rapier\Exception
    {
    }
}
