<?php

declare(strict_types=1);

namespace Rapier\Pool;

use Throwable;

/**
 * What a Pool needs to know about one kind of connection. PdoConnector and
 * RedisConnector implement it; CallableConnector builds one from closures.
 * Every method runs inside a coroutine and may do hooked I/O.
 */
interface Connector
{
    /**
     * Opens a new connection.
     *
     * @throws ConnectionException when it cannot be opened
     */
    public function connect(): object;

    /**
     * The health check on borrow: whether a connection that sat idle still
     * works. A dead one returns false, or throws an Exception; it is then
     * closed and replaced without the borrower noticing.
     */
    public function check(object $connection): bool;

    /**
     * Readies a connection that comes back for the next borrower (roll back
     * an open transaction...). False when it must be closed instead. $error
     * is what the borrower's callback threw in Pool::use(), if anything.
     */
    public function reset(object $connection, ?Throwable $error): bool;

    /** Closes a connection the pool drops; failures are ignored. */
    public function close(object $connection): void;

    /** Where connections go, for messages: "mysql:host=db;dbname=app". Never a password. */
    public function describe(): string;
}
