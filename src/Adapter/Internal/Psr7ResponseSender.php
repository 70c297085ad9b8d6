<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Psr\Http\Message\ResponseInterface;
use Rapier\Http\Response;

/**
 * Sends a PSR-7 response through a Rapier response, with what the request
 * set through PHP itself, the way Slim's App::respond() does under php-fpm:
 * the headers set with header() or setcookie() first, then the response's
 * (its Content-Type replacing an earlier one), the response's status.
 * A body up to BUFFERED_BODY bytes goes out in one piece, a larger or
 * unsized one in chunks.
 *
 * @internal
 */
final class Psr7ResponseSender
{
    /** Bodies up to this size are read whole and sent with a Content-Length. */
    private const BUFFERED_BODY = 1 << 20;

    /** Chunk read from a larger body per write(). */
    private const CHUNK = 65536;

    public static function send(ResponseInterface $response, Response $out, OutputCapture $capture): void
    {
        $echoed = $capture->take();
        $out->status($response->getStatusCode(), self::reason($response));
        $hasType = $response->hasHeader('Content-Type');
        $native = EarlyHints::withoutReplaced($capture->headers(), $response->hasHeader(...));
        foreach ($native as [$name, $value]) {
            if (!$hasType || strcasecmp($name, 'Content-Type') !== 0) {
                $out->header($name, $value);
            }
        }
        foreach ($response->getHeaders() as $name => $values) {
            foreach ($values as $value) {
                $out->header((string) $name, $value);
            }
        }
        $body = $response->getBody();
        if ($body->isSeekable()) {
            $body->rewind();
        }
        $size = $body->getSize();
        if ($size !== null && $size <= self::BUFFERED_BODY) {
            $out->end($echoed . $body->getContents());

            return;
        }
        if ($echoed !== '') {
            $out->write($echoed);
        }
        while (!$body->eof()) {
            $chunk = $body->read(self::CHUNK);
            if ($chunk === '' || !$out->write($chunk)) {
                break;
            }
        }
        $out->end();
    }

    private static function reason(ResponseInterface $response): string
    {
        $reason = $response->getReasonPhrase();

        return strlen($reason) > 64 || preg_match('/[^\x20-\x7e]/', $reason) ? '' : $reason;
    }
}
