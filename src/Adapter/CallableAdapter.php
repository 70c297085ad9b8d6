<?php

declare(strict_types=1);

namespace Rapier\Adapter;

use Closure;
use Rapier\Http\Request;
use Rapier\Http\Response;

/** An app that is a plain handler: fn(Rapier\Http\Request, Rapier\Http\Response). */
final class CallableAdapter implements Adapter
{
    private readonly Closure $handler;

    public function __construct(callable $handler)
    {
        $this->handler = $handler(...);
    }

    public function boot(): void
    {
    }

    public function handle(Request $request, Response $response): void
    {
        ($this->handler)($request, $response);
    }
}
