<?php

/*
 * A PSR-15 request handler, served by Psr15Adapter in Psr15Test. The
 * interfaces come from the psr extension (psr.so), the responses from
 * nyholm/psr7.
 */

declare(strict_types=1);

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Http\Server\RequestHandlerInterface;

require_once '/usr/share/php/Nyholm/Psr7/autoload.php';

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
                ->withBody($factory->createStream(json_encode(self::describeBody($request->getBody()), JSON_THROW_ON_ERROR)));
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

    /**
     * The body read whole, read again after a rewind, its last 16 bytes
     * read after a seek from the end, and what the stream says of itself.
     *
     * @return array<string, mixed>
     */
    private static function describeBody(StreamInterface $stream): array
    {
        $content = (string) $stream;
        $stream->rewind();
        $again = $stream->getContents();
        $stream->seek(-16, SEEK_END);
        $tail = $stream->read(16);

        return [
            'length' => strlen($content),
            'sha1' => sha1($content),
            'again' => $again === $content,
            'tail' => bin2hex($tail),
            'eof' => $stream->read(1) === '' && $stream->eof(),
            'size' => $stream->getSize(),
            'seekable' => $stream->isSeekable(),
            'readable' => $stream->isReadable(),
            'writable' => $stream->isWritable(),
            'uri' => $stream->getMetadata('uri'),
        ];
    }
};
