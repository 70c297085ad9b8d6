<?php

/*
 * A minimal per-worker connection pool for the bench server, so concurrent
 * request coroutines never share one MySQL or Redis connection (a socket
 * used by two coroutines at once is refused, see docs/hooks.md).
 * Connections are opened lazily up to $max and kept for the worker's life;
 * a borrower beyond $max waits on the channel until one is returned.
 *
 * Rapier\Pool (issue 4) will replace this; the bench keeps its own so that
 * it measures the server, not a pool still being written.
 */

declare(strict_types=1);

namespace Bench;

use Closure;
use Rapier\Channel;

final class ConnectionPool
{
    private readonly Channel $idle;
    private int $open = 0;

    /** @param Closure(): object $connect */
    public function __construct(private readonly Closure $connect, private readonly int $max)
    {
        $this->idle = new Channel($max);
    }

    /**
     * Runs $use with a connection of its own. A connection whose use threw
     * is dropped rather than returned: it may be in the middle of a reply.
     *
     * @template T
     * @param Closure(object): T $use
     * @return T
     */
    public function with(Closure $use): mixed
    {
        $connection = $this->borrow();
        try {
            $result = $use($connection);
        } catch (\Throwable $e) {
            $this->open--;
            throw $e;
        }
        $this->idle->push($connection);

        return $result;
    }

    private function borrow(): object
    {
        if ($this->idle->length() === 0 && $this->open < $this->max) {
            $this->open++;
            try {
                return ($this->connect)();
            } catch (\Throwable $e) {
                $this->open--;
                throw $e;
            }
        }

        return $this->idle->pop();
    }
}
