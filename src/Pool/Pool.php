<?php

declare(strict_types=1);

namespace Rapier\Pool;

use Rapier\CanceledException;
use Rapier\Channel;
use Rapier\Coroutine;
use Rapier\Pool\Internal\PooledConnection;
use Throwable;
use ValueError;

/**
 * A pool of connections shared by the coroutines of one process.
 *
 * Bookkeeping: $open counts every slot in use (idle, lent, being opened,
 * checked or reset) and never exceeds max. Idle connections form a stack:
 * get() takes the most recently returned one, so under light load the same
 * few stay busy and the others age out through the idle timeout (a FIFO
 * would keep every connection warm forever). The idle timeout is applied on
 * every get() and put() and by reap(); a timer of its own would keep
 * Rapier\run() from ending.
 *
 * Waiting: when all max are in use, get() pops an unbuffered Rapier\Channel
 * with its timeout, which suspends only that coroutine. put() first offers
 * the connection to a waiter with push($entry, 0), which succeeds only when
 * someone waits, and keeps it idle otherwise; a closed connection offers its
 * slot the same way (null: "open a new one"). Waiters are served in arrival
 * order and a connection handed over never goes back to the idle stack.
 *
 * Ownership: a connection belongs to the coroutine that borrowed it. One
 * that coroutine never put back is closed when it ends (Coroutine::defer), so
 * a forgotten put() cannot starve the pool, and a connection in an unknown
 * state is never lent again.
 */
class Pool
{
    /** Longest timeout Rapier\Channel accepts, in seconds (about 285 years). */
    private const MAX_TIMEOUT = 9.0e9;

    public readonly PoolOptions $options;

    /** Waiting borrowers pop connections (or null: a free slot) from here. */
    private readonly Channel $handoff;

    /** Closed once the pool is closed and every slot is free: wakes close(). */
    private readonly Channel $drained;

    /** @var list<PooledConnection> oldest first */
    private array $idle = [];

    /** @var array<int, PooledConnection> by spl_object_id() of the connection */
    private array $lent = [];

    /**
     * Coroutines whose end already reclaims their connections, with how many
     * they hold now: one that gave everything back costs its end no scan.
     *
     * @var array<int, int>
     */
    private array $holders = [];

    private int $open = 0;
    private int $waiting = 0;
    private bool $closed = false;

    /** @var array{created: int, closed: int, reclaimed: int, timeouts: int} */
    private array $counters = ['created' => 0, 'closed' => 0, 'reclaimed' => 0, 'timeouts' => 0];

    public function __construct(private readonly Connector $connector, ?PoolOptions $options = null)
    {
        $this->options = $options ?? new PoolOptions();
        $this->handoff = new Channel(0);
        $this->drained = new Channel(0);
    }

    /**
     * Borrows a connection: an idle one (health-checked if it sat idle for
     * checkAfterIdle), a new one while fewer than max are open, or the next
     * one put back, waiting at most $timeout seconds (null: the pool's
     * waitTimeout; negative: forever; 0: no wait).
     *
     * @throws PoolTimeoutException when none came free in time
     * @throws PoolClosedException when the pool is or gets closed
     * @throws ConnectionException when a new connection cannot be opened
     * @throws PoolUsageError outside a coroutine
     * @throws ValueError when $timeout is NAN
     */
    public function get(?float $timeout = null): object
    {
        $this->requireCoroutine('get');
        $timeout = $this->waitTimeout($timeout);
        $this->requireOpen();
        $this->reap();
        $entry = $this->takeIdle() ?? $this->openOrWait($timeout);

        return $this->lend($entry);
    }

    /**
     * Gives a borrowed connection back. It is reset for the next borrower
     * (an open transaction is rolled back) or closed when it is broken.
     *
     * @throws PoolUsageError when this pool did not lend it, or got it back already
     */
    public function put(object $connection): void
    {
        $this->giveBack($this->takeLent($connection, 'put back'), null);
    }

    /**
     * Closes a borrowed connection the caller knows is broken, and frees its
     * slot. Pool::use() does this by itself when the callback's exception
     * says the connection is lost.
     *
     * @throws PoolUsageError when this pool did not lend it, or got it back already
     */
    public function discard(object $connection): void
    {
        $this->destroy($this->takeLent($connection, 'discard'));
    }

    /**
     * Runs $fn with a borrowed connection and always gives it back, also when
     * $fn throws; a connection the exception shows broken is closed instead.
     * Returns what $fn returns.
     *
     * @template T
     * @param callable(object): T $fn
     * @return T
     *
     * @throws PoolTimeoutException|PoolClosedException|ConnectionException|PoolUsageError as get()
     */
    public function use(callable $fn, ?float $timeout = null): mixed
    {
        $connection = $this->get($timeout);
        try {
            $result = $fn($connection);
        } catch (Throwable $e) {
            $this->giveBackAfter($connection, $e);
            throw $e;
        }
        $this->put($connection);

        return $result;
    }

    /**
     * Opens connections until min are open (at worker start, say), one after
     * the other. Returns how many it opened.
     *
     * @throws ConnectionException when one cannot be opened
     * @throws PoolClosedException|PoolUsageError
     */
    public function fill(): int
    {
        $this->requireCoroutine('fill');
        $this->requireOpen();
        $opened = 0;
        while ($this->open < $this->options->min) {
            $this->open++;
            $this->park($this->connect());
            $opened++;
            // close() may have run while connect() waited: park() closed that one.
            $this->requireOpen();
        }

        return $opened;
    }

    /**
     * Closes idle connections unused for longer than the idle timeout,
     * keeping min open. get() and put() do this already; call it from a
     * Rapier\Timer tick in a long-running server so that an idle worker's
     * connections close too. Returns how many it closed.
     */
    public function reap(): int
    {
        if ($this->options->idleTimeout === null) {
            return 0;
        }
        $closed = 0;
        while ($this->idle !== [] && $this->open > $this->options->min && self::idleFor($this->idle[0]) > $this->options->idleTimeout) {
            $this->destroy(array_shift($this->idle));
            $closed++;
        }

        return $closed;
    }

    /**
     * Closes the pool: borrowers waiting now and later get
     * PoolClosedException, idle connections close at once, borrowed ones
     * when they come back. Inside a coroutine it waits up to $timeout
     * seconds (negative: forever) for those. Returns whether every connection
     * is closed. Closing twice is harmless.
     *
     * @throws PoolUsageError when asked to wait outside a coroutine
     * @throws ValueError when $timeout is NAN
     */
    public function close(float $timeout = 0): bool
    {
        if (is_nan($timeout)) {
            throw new ValueError(static::class . '::close(): Argument #1 ($timeout) must not be NAN');
        }
        if (!$this->closed) {
            $this->closed = true;
            $this->handoff->close();
            while ($this->idle !== []) {
                $this->destroy(array_pop($this->idle));
            }
            $this->notifyIfDrained();
        }
        if ($this->open > 0 && $timeout != 0) {
            $this->requireCoroutine('close');
            $this->drained->pop(self::forChannel($timeout));
        }

        return $this->open === 0;
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    /**
     * Gauges and counters for monitoring: open (idle + in use + opening),
     * idle, in_use, waiting, min, max; created, closed (by the pool),
     * reclaimed (closed because their coroutine ended without putting them
     * back) and timeouts since the pool was made.
     *
     * @return array<string, int>
     */
    public function stats(): array
    {
        return [
            'open' => $this->open,
            'idle' => count($this->idle),
            'in_use' => count($this->lent),
            'waiting' => $this->waiting,
            'min' => $this->options->min,
            'max' => $this->options->max,
        ] + $this->counters;
    }

    public function __debugInfo(): array
    {
        return ['connector' => $this->connector->describe(), 'state' => $this->closed ? 'closed' : 'open'] + $this->stats();
    }

    /** The most recently returned idle connection that passes its health check, if any. */
    private function takeIdle(): ?PooledConnection
    {
        while (($entry = array_pop($this->idle)) !== null) {
            if (self::idleFor($entry) < $this->options->checkAfterIdle || $this->check($entry)) {
                return $entry;
            }
            $this->destroy($entry);
        }

        return null;
    }

    /**
     * A check that throws an Exception failed. An Error is a bug, and a
     * cancellation is meant for the borrower: both reach it, the connection
     * (perhaps mid-query) closed.
     */
    private function check(PooledConnection $entry): bool
    {
        try {
            return $this->connector->check($entry->connection);
        } catch (Throwable $e) {
            if ($e instanceof \Exception && !$e instanceof CanceledException) {
                return false;
            }
            $this->destroy($entry);
            throw $e;
        }
    }

    /** A new connection if the pool may grow, else one handed over by put() or close(). */
    private function openOrWait(float $timeout): PooledConnection
    {
        if ($this->open < $this->options->max) {
            $this->open++;

            return $this->connect();
        }
        $this->waiting++;
        try {
            $got = $this->handoff->pop($timeout);
        } finally {
            $this->waiting--;
        }
        if ($got === false) {
            $this->requireOpen();
            $this->counters['timeouts']++;
            // Only a wait with a timeout ends empty-handed on an open pool.
            throw new PoolTimeoutException(sprintf(
                'No connection to %s came free within %s s: all %d are in use (raise the pool\'s max or waitTimeout)',
                $this->connector->describe(),
                $timeout,
                $this->options->max,
            ));
        }

        // null: a slot came free without a connection, so open one into it.
        return $got ?? $this->connect();
    }

    /** Opens a connection into a slot already counted in $open. */
    private function connect(): PooledConnection
    {
        try {
            $connection = $this->connector->connect();
        } catch (Throwable $e) {
            $this->releaseSlot();
            throw $e;
        }
        $this->counters['created']++;

        return new PooledConnection($connection, hrtime(true));
    }

    private function lend(PooledConnection $entry): object
    {
        if ($this->closed) {
            $this->destroy($entry);
            $this->requireOpen();
        }
        $owner = Coroutine::id();
        $entry->owner = $owner;
        $this->lent[spl_object_id($entry->connection)] = $entry;
        if (!isset($this->holders[$owner])) {
            $this->holders[$owner] = 0;
            Coroutine::defer(fn () => $this->reclaim($owner));
        }
        $this->holders[$owner]++;

        return $entry->connection;
    }

    private function takeLent(object $connection, string $what): PooledConnection
    {
        $id = spl_object_id($connection);
        $entry = $this->lent[$id] ?? null;
        if ($entry === null || $entry->connection !== $connection) {
            throw new PoolUsageError(sprintf(
                'Cannot %s a %s this pool did not lend, or that was already given back',
                $what,
                $connection::class,
            ));
        }
        $this->unlend($id, $entry);

        return $entry;
    }

    private function unlend(int $id, PooledConnection $entry): void
    {
        unset($this->lent[$id]);
        if (isset($this->holders[$entry->owner])) {
            $this->holders[$entry->owner]--;
        }
    }

    private function giveBack(PooledConnection $entry, ?Throwable $error): void
    {
        $entry->owner = -1;
        try {
            $reusable = !$this->closed && $this->connector->reset($entry->connection, $error);
        } catch (Throwable $e) {
            $this->destroy($entry);
            throw $e;
        }
        // reset() may have waited on I/O: the pool can have closed meanwhile.
        if (!$reusable || $this->closed) {
            $this->destroy($entry);

            return;
        }
        $this->park($entry);
        $this->reap();
    }

    /** Pool::use()'s error path: give back or close, and let $error win over anything else. */
    private function giveBackAfter(object $connection, Throwable $error): void
    {
        $entry = $this->lent[spl_object_id($connection)] ?? null;
        if ($entry === null || $entry->connection !== $connection) {
            return;
        }
        $this->unlend(spl_object_id($connection), $entry);
        try {
            $this->giveBack($entry, $error);
        } catch (Throwable) {
            // giveBack() closed it already; the callback's exception is the one to report.
        }
    }

    /** Hands a ready connection to the first waiter, or makes it idle; on a closed pool, closes it. */
    private function park(PooledConnection $entry): void
    {
        if ($this->closed) {
            $this->destroy($entry);

            return;
        }
        $entry->since = hrtime(true);
        if (!$this->handoff->push($entry, 0)) {
            $this->idle[] = $entry;
        }
    }

    /** Closes a connection the pool holds and frees its slot. */
    private function destroy(PooledConnection $entry): void
    {
        $this->counters['closed']++;
        try {
            $this->connector->close($entry->connection);
        } catch (Throwable) {
            // Closing a broken connection may fail; it is gone either way.
        }
        $this->releaseSlot();
    }

    /** Gives a free slot to the first waiter (who opens a connection into it), or frees it. */
    private function releaseSlot(): void
    {
        if (!$this->closed && $this->handoff->push(null, 0)) {
            return;
        }
        $this->open--;
        $this->notifyIfDrained();
    }

    private function notifyIfDrained(): void
    {
        if ($this->closed && $this->open === 0) {
            $this->drained->close();
        }
    }

    /** Runs when coroutine $owner ends: closes what it borrowed and never put back. */
    private function reclaim(int $owner): void
    {
        $held = $this->holders[$owner] ?? 0;
        unset($this->holders[$owner]);
        if ($held === 0) {
            return;
        }
        foreach ($this->lent as $id => $entry) {
            if ($entry->owner === $owner) {
                unset($this->lent[$id]);
                $this->counters['reclaimed']++;
                $this->destroy($entry);
            }
        }
    }

    /** Seconds since the connection was opened or last given back (floats: INF compares right). */
    private static function idleFor(PooledConnection $entry): float
    {
        return (hrtime(true) - $entry->since) / 1e9;
    }

    private function waitTimeout(?float $timeout): float
    {
        if ($timeout === null) {
            return self::forChannel($this->options->waitTimeout);
        }
        if (is_nan($timeout)) {
            throw new ValueError(static::class . '::get(): Argument #1 ($timeout) must not be NAN');
        }

        return self::forChannel($timeout);
    }

    /** Rapier\Channel refuses timeouts past MAX_TIMEOUT; anything longer (INF) waits forever. */
    private static function forChannel(float $timeout): float
    {
        return $timeout > self::MAX_TIMEOUT ? -1.0 : $timeout;
    }

    private function requireOpen(): void
    {
        if ($this->closed) {
            throw new PoolClosedException(sprintf('The pool of %s is closed', $this->connector->describe()));
        }
    }

    private function requireCoroutine(string $method): void
    {
        if (Coroutine::id() < 0) {
            throw new PoolUsageError(sprintf(
                'Cannot call %s::%s() outside a coroutine: call it inside Rapier\run(), Rapier\go() or a server handler',
                static::class,
                $method,
            ));
        }
    }
}
