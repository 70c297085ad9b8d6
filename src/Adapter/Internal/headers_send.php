<?php

/*
 * FrankenPHP's headers_send(), for applications under a framework adapter
 * (EarlyHints). Declared only in the worker that serves them, and only if
 * no other SAPI or library declared it: Symfony takes its presence to mean
 * that the server can send 103 Early Hints.
 */

declare(strict_types=1);

if (!function_exists('headers_send')) {
    /** Sends a 103 Early Hints response with the headers set so far: 1 when it went out, else 0. */
    function headers_send(int $status = 200): int
    {
        return Rapier\Adapter\Internal\EarlyHints::send($status);
    }
}
