<?php

declare(strict_types=1);

namespace Rapier\Pool;

use Closure;
use Throwable;

/**
 * A Connector made of closures, for pooling anything without writing a
 * class: only $connect is required. Without $check every idle connection
 * counts as healthy, without $reset every returned one is reused (unless
 * the borrower's callback threw), without $close the pool simply drops it.
 */
final class CallableConnector implements Connector
{
    private readonly Closure $connect;
    private readonly ?Closure $check;
    private readonly ?Closure $reset;
    private readonly ?Closure $close;

    /**
     * @param callable(): object $connect
     * @param (callable(object): bool)|null $check
     * @param (callable(object, ?Throwable): bool)|null $reset
     * @param (callable(object): void)|null $close
     */
    public function __construct(
        callable $connect,
        ?callable $check = null,
        ?callable $reset = null,
        ?callable $close = null,
        private readonly string $description = 'connection',
    ) {
        $this->connect = $connect(...);
        $this->check = $check === null ? null : $check(...);
        $this->reset = $reset === null ? null : $reset(...);
        $this->close = $close === null ? null : $close(...);
    }

    public function connect(): object
    {
        return ($this->connect)();
    }

    public function check(object $connection): bool
    {
        return $this->check === null || ($this->check)($connection);
    }

    public function reset(object $connection, ?Throwable $error): bool
    {
        if ($this->reset !== null) {
            return ($this->reset)($connection, $error);
        }

        // Without a way to tell, a connection that saw a failure is not trusted.
        return $error === null;
    }

    public function close(object $connection): void
    {
        if ($this->close !== null) {
            ($this->close)($connection);
        }
    }

    public function describe(): string
    {
        return $this->description;
    }
}
