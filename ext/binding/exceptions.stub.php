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
