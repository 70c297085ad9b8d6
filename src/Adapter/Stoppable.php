<?php

declare(strict_types=1);

namespace Rapier\Adapter;

/**
 * An Adapter with long-lived responses (streams, watches, long polls) that
 * it ends when the worker begins a graceful stop, so the stop need not
 * wait shutdown_timeout for them: `rapier serve` calls stopping() from the
 * HTTP server's workerStopping event, while requests still run.
 */
interface Stoppable
{
    /** The worker has begun a graceful stop: end the long-lived responses. Must not wait long. */
    public function stopping(): void;
}
