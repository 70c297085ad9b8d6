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

    /** An operation with a timeout did not finish in time. */
    class TimeoutException extends Exception
    {
    }
}
