<?php

declare(strict_types=1);

namespace Rapier\Tests\Psr;

use Psr\Http\Message\StreamInterface;

/**
 * What a PSR-7 body stream does when an application reads it: whole, again
 * after a rewind, its last 16 bytes after a seek from the end, and what it
 * says of itself. The served test apps describe their request's body with
 * it (they require this file: no autoloader runs there), and the tests
 * compare with what a stream of the body sent should say.
 */
final class BodyStreamProbe
{
    /** @return array<string, mixed> */
    public static function describe(StreamInterface $stream): array
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

    /**
     * describe() of a read-only stream of $body, without its 'uri'.
     *
     * @return array<string, mixed>
     */
    public static function expectedFor(string $body): array
    {
        return [
            'length' => strlen($body),
            'sha1' => sha1($body),
            'again' => true,
            'tail' => bin2hex(substr($body, -16)),
            'eof' => true,
            'size' => strlen($body),
            'seekable' => true,
            'readable' => true,
            'writable' => false,
        ];
    }
}
