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
     * Calls $fn; an exit() or die() inside it ends $fn instead of the script.
     *
     * @throws \Rapier\ExitException when $fn called exit(), with its status
     * @throws \Throwable whatever $fn threw
     */
    function trap_exit(callable $fn, mixed ...$args): mixed {}
}
