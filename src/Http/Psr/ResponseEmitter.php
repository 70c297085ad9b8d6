<?php

declare(strict_types=1);

namespace Rapier\Http\Psr;

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use Rapier\Http\Response;

/**
 * PSR-7 ResponseInterface -> Rapier\Http\Response: status and reason, every
 * header value as its own line (repeated Set-Cookie stays repeated), and
 * the body in one piece when it is small and sized, else streamed.
 */
final class ResponseEmitter
{
    /**
     * Bodies of a known size up to this are sent with end(): one write, a
     * Content-Length, and gzip when the client and type allow it. Larger
     * ones would be held whole in memory for that, so they are streamed.
     */
    public const BUFFER_LIMIT = 1 << 20;

    /** Bytes read from the body per write() when streaming. */
    public const CHUNK_SIZE = 1 << 16;

    /** Rapier takes a custom reason of at most this many printable characters. */
    private const REASON_MAX = 64;

    /** $head: the request was HEAD (the server sends no body; only enough is read to frame the head). */
    public function emit(ResponseInterface $psr, Response $response, bool $head = false): void
    {
        $response->status($psr->getStatusCode(), $this->reason($psr->getReasonPhrase()));
        foreach ($psr->getHeaders() as $name => $values) {
            foreach ($values as $value) {
                $response->header((string) $name, $value);
            }
        }
        $body = $psr->getBody();
        // The size of an unseekable stream is not to be trusted: fstat() says 0 for a pipe.
        $size = $body->isSeekable() ? $body->getSize() : null;
        if ($size !== null) {
            // Handlers often write the body and leave the position at its end.
            $body->rewind();
        }
        if ($size !== null && $size <= self::BUFFER_LIMIT) {
            $response->end($size === 0 ? '' : $body->getContents());
            return;
        }
        $file = $this->localFile($body);
        if ($file !== null && $size !== null) {
            $response->sendfile($file, 0, $size);
            return;
        }
        $this->stream($body, $response, $head);
    }

    private function stream(StreamInterface $body, Response $response, bool $head): void
    {
        // A read that returns nothing is the end: an unsized stream need not report eof() first.
        while (($chunk = $body->read(self::CHUNK_SIZE)) !== '') {
            if (!$response->write($chunk) || $head) {
                break;
            }
        }
        if ($response->isWritable()) {
            $response->end();
        }
    }

    /** The path of a seekable stream over a whole regular file, which the kernel can send itself. */
    private function localFile(StreamInterface $body): ?string
    {
        $meta = $body->getMetadata();
        if (!is_array($meta) || ($meta['wrapper_type'] ?? null) !== 'plainfile' || !$body->isSeekable()) {
            return null;
        }
        $path = $meta['uri'] ?? null;

        return is_string($path) && is_file($path) && filesize($path) === $body->getSize() ? $path : null;
    }

    private function reason(string $reason): string
    {
        if (strlen($reason) > self::REASON_MAX || preg_match('/[^\x20-\x7e\t]/', $reason) === 1) {
            return '';
        }

        return $reason;
    }
}
