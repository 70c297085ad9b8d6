<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;
use Rapier\Http\Request;

/**
 * gRPC-Web (PROTOCOL-WEB.md), what browsers speak over any HTTP version:
 * the same length-prefixed messages, with the status and trailer metadata
 * as a last frame of the body (its flag's high bit set) instead of HTTP
 * trailers; in the -text variant, the body base64-encoded both ways.
 *
 * @internal
 */
final class WebFormat
{
    private const TRAILER_FLAG = "\x80";

    /**
     * @param string $contentType the response's: the request's, or binary protobuf for a codec not served
     * @param string|null $unsupported the request's content-type when its codec is not protobuf
     */
    private function __construct(
        public readonly string $contentType,
        public readonly bool $text,
        private readonly ?string $unsupported = null,
    ) {
    }

    /**
     * The format of a request of $contentType (lower-cased, without
     * parameters), or null when it is not gRPC-Web. A codec other than
     * protobuf still gets gRPC-Web's framing, for checkCodec()'s answer.
     */
    public static function of(string $contentType): ?self
    {
        if (preg_match('~^application/grpc-web(-text)?(\+[^+]*)?$~D', $contentType, $m) !== 1) {
            return null;
        }
        $codec = $m[2] ?? '';
        if ($codec !== '' && $codec !== '+proto') {
            return new self('application/grpc-web+proto', false, $contentType);
        }

        return new self($contentType, ($m[1] ?? '') !== '');
    }

    /** @throws GrpcException UNIMPLEMENTED for a codec other than protobuf */
    public function checkCodec(): void
    {
        if ($this->unsupported !== null) {
            throw new GrpcException("unsupported content-type $this->unsupported: this server speaks protobuf "
                . '(application/grpc-web+proto, application/grpc-web-text+proto)', Status::UNIMPLEMENTED);
        }
    }

    /**
     * The request body as a stream of its messages: read while it arrives in
     * the binary format; in -text, read whole first (its base64 may be
     * padded anywhere) and decoded.
     *
     * @return resource
     * @throws GrpcException INTERNAL for -text that is not base64
     */
    public function body(Request $request)
    {
        if (!$this->text) {
            return $request->bodyStream();
        }
        $bytes = self::decodeText($request->body());
        $stream = fopen('php://memory', 'w+b');
        fwrite($stream, $bytes);
        rewind($stream);

        return $stream;
    }

    /** Bytes of the response body as they go out: base64 in -text, each piece padded on its own (as the spec allows). */
    public function wrap(string $bytes): string
    {
        return $this->text ? base64_encode($bytes) : $bytes;
    }

    /**
     * The last frame: grpc-status, grpc-message and the trailer metadata,
     * as an HTTP/1 header block (lower-case names, CRLF after each field).
     *
     * @param list<array{string, string}> $trailers as Context gives them (-bin values base64, as in HTTP/2)
     */
    public function trailerFrame(Status $status, string $message, array $trailers): string
    {
        $block = "grpc-status:{$status->value}\r\n";
        if ($message !== '') {
            $block .= 'grpc-message:' . PercentEncoding::encode($message) . "\r\n";
        }
        foreach ($trailers as [$key, $value]) {
            $block .= "$key:$value\r\n";
        }

        return self::TRAILER_FLAG . pack('N', strlen($block)) . $block;
    }

    /** base64 that may hold padding between pieces ("AA==AAAA"), as clients that flush in pieces send it. */
    private static function decodeText(string $text): string
    {
        $bytes = '';
        $text = preg_replace('/\s+/', '', $text) ?? '';
        foreach (preg_split('/(?<==)(?=[^=])/', $text) ?: [] as $piece) {
            $decoded = strlen($piece) % 4 === 0 ? base64_decode($piece, true) : false;
            if ($decoded === false) {
                throw new GrpcException('malformed application/grpc-web-text body: not base64', Status::INTERNAL);
            }
            $bytes .= $decoded;
        }

        return $bytes;
    }
}
