<?php

/** @generate-class-entries */

namespace Rapier {
    /**
     * @var int
     * @cvalue RAPIER_HOOK_TCP
     */
    const HOOK_TCP = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_UDP
     */
    const HOOK_UDP = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_UNIX
     */
    const HOOK_UNIX = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_UDG
     */
    const HOOK_UDG = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_SSL
     */
    const HOOK_SSL = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_SLEEP
     */
    const HOOK_SLEEP = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_STREAM_SELECT
     */
    const HOOK_STREAM_SELECT = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_CURL
     */
    const HOOK_CURL = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_PGSQL
     */
    const HOOK_PGSQL = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_DNS
     */
    const HOOK_DNS = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_SOCKETS
     */
    const HOOK_SOCKETS = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_PROC
     */
    const HOOK_PROC = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_FLOCK
     */
    const HOOK_FLOCK = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_STDIO
     */
    const HOOK_STDIO = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_MEMCACHED
     */
    const HOOK_MEMCACHED = UNKNOWN;
    /**
     * @var int
     * @cvalue RAPIER_HOOK_ALL
     */
    const HOOK_ALL = UNKNOWN;

    /**
     * Runs $main as the first coroutine and drives the event loop until every
     * coroutine, timer and socket wait has finished.
     *
     * @throws \Rapier\Exception when called inside a coroutine (runs do not nest)
     * @throws \Rapier\DeadlockException when coroutines are left waiting on what can never come
     * @throws \Throwable whatever $main threw
     */
    function run(callable $main, mixed ...$args): mixed {}

    /**
     * Starts a coroutine and returns its id. It runs from the next scheduler turn.
     *
     * @throws \Rapier\Exception outside Rapier\run()
     */
    function go(callable $fn, mixed ...$args): int {}

    /**
     * Runs each callable in a coroutine of its own, at most $limit at a time
     * (0: all at once), and waits for them all; returns their results under
     * the same keys, in the same order. The first exception one throws, the
     * timeout passing, or a cancel of the caller cancels the ones still
     * running (the others never start); parallel() throws once they ended.
     *
     * @param callable[] $callables
     * @throws \Rapier\Exception outside a coroutine
     * @throws \Rapier\TimeoutException when $timeout seconds pass before every callable returned
     * @throws \Rapier\CanceledException when the calling coroutine is canceled while it waits
     * @throws \Throwable the first exception a callable threw
     */
    function parallel(array $callables, float $timeout = -1, int $limit = 0): array {}

    /**
     * Calls $fn; an exit() or die() inside it ends $fn instead of the script.
     *
     * @throws \Rapier\ExitException when $fn called exit(), with its status
     * @throws \Throwable whatever $fn threw
     */
    function trap_exit(callable $fn, mixed ...$args): mixed {}
}
