<?php

declare(strict_types=1);

namespace Rapier\Adapter;

use Psr\Http\Server\RequestHandlerInterface;
use Rapier\Http\Psr\Psr17Factories;
use Rapier\Http\Psr\ResponseEmitter;
use Rapier\Http\Psr\ServerRequestBuilder;
use Rapier\Http\Request;
use Rapier\Http\Response;

/**
 * A PSR-15 request handler behind the server: each Rapier request becomes
 * a PSR-7 ServerRequest built with the installed PSR-17 factories, and the
 * handler's PSR-7 response is written back.
 */
final class Psr15Adapter implements Adapter
{
    private readonly ServerRequestBuilder $requests;
    private readonly ResponseEmitter $responses;

    /** @throws \Rapier\Exception when no PSR-17 factories are installed */
    public function __construct(private readonly RequestHandlerInterface $handler, ?Psr17Factories $factories = null)
    {
        $this->requests = new ServerRequestBuilder($factories ?? Psr17Factories::detect());
        $this->responses = new ResponseEmitter();
    }

    public function boot(): void
    {
    }

    public function handle(Request $request, Response $response): void
    {
        $psr = $this->handler->handle($this->requests->build($request));
        $this->responses->emit($psr, $response, $request->method === 'HEAD');
    }
}
