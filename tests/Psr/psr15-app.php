<?php

/*
 * A PSR-15 request handler, served by Psr15Adapter in Psr15Test. The
 * interfaces come from the psr extension (psr.so), the responses from
 * nyholm/psr7.
 */

declare(strict_types=1);

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Server\RequestHandlerInterface;
use Rapier\Tests\Psr\BodyStreamProbe;

require_once '/usr/share/php/Nyholm/Psr7/autoload.php';
require_once __DIR__ . '/BodyStreamProbe.php';

return new class () implements RequestHandlerInterface {
    private int $handled = 0;

    public function handle(ServerRequestInterface $request): ResponseInterface
    {
        $factory = new Nyholm\Psr7\Factory\Psr17Factory();
        if ($request->getUri()->getPath() === '/fail') {
            throw new RuntimeException('handler failed');
        }
        if ($request->getUri()->getPath() === '/body') {
            return $factory->createResponse(200)
                ->withHeader('Content-Type', 'application/json')
                ->withBody($factory->createStream(json_encode(BodyStreamProbe::describe($request->getBody()), JSON_THROW_ON_ERROR)));
        }
        $body = json_encode([
            'method' => $request->getMethod(),
            'scheme' => $request->getUri()->getScheme(),
            'path' => $request->getUri()->getPath(),
            'name' => $request->getQueryParams()['name'] ?? null,
            'body' => (string) $request->getBody(),
            'handled' => ++$this->handled,
        ]);

        return $factory->createResponse($request->getMethod() === 'POST' ? 201 : 200)
            ->withHeader('Content-Type', 'application/json')
            ->withBody($factory->createStream($body));
    }
};
