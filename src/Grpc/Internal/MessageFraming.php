<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Generator;
use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;

/**
 * gRPC's Length-Prefixed-Message: a compressed flag (one byte, 0 or 1),
 * the length (four bytes, big-endian), then the message.
 *
 * @internal
 */
final class MessageFraming
{
    public const PREFIX_BYTES = 5;
    /** Input fed to zlib at a time: bounds what one step can inflate to (zlib's ratio is at most about 1:1032). */
    private const INFLATE_STEP = 4096;

    public static function encode(string $message): string
    {
        // Responses are never compressed: the server sends no grpc-encoding.
        return "\0" . pack('N', strlen($message)) . $message;
    }

    /**
     * The messages of a request body, in order, decompressed, each checked
     * against $maxBytes before it is decompressed and after.
     *
     * @param string $encoding the request's grpc-encoding: identity or gzip
     * @return Generator<int, string>
     * @throws GrpcException INTERNAL for a truncated frame, a bad flag or bad
     *         gzip data; RESOURCE_EXHAUSTED for a message over $maxBytes
     */
    public static function decode(string $body, string $encoding, int $maxBytes): Generator
    {
        $offset = 0;
        $length = strlen($body);
        while ($offset < $length) {
            if ($length - $offset < self::PREFIX_BYTES) {
                throw new GrpcException(sprintf('truncated message: %d bytes of a 5-byte prefix', $length - $offset), Status::INTERNAL);
            }
            $flag = ord($body[$offset]);
            $size = unpack('N', $body, $offset + 1)[1];
            if ($flag > 1) {
                throw new GrpcException("invalid compressed flag $flag in a message prefix", Status::INTERNAL);
            }
            if ($size > $maxBytes) {
                throw self::tooLarge($size, $maxBytes);
            }
            $offset += self::PREFIX_BYTES;
            if ($length - $offset < $size) {
                throw new GrpcException(sprintf('truncated message: %d of %d bytes', $length - $offset, $size), Status::INTERNAL);
            }
            $message = substr($body, $offset, $size);
            $offset += $size;
            if ($flag === 1) {
                if ($encoding !== 'gzip') {
                    // PROTOCOL-HTTP2.md: a compressed message without a grpc-encoding is a protocol error.
                    throw new GrpcException('compressed message without grpc-encoding', Status::INTERNAL);
                }
                $message = self::gunzip($message, $maxBytes);
            }
            yield $message;
        }
    }

    /**
     * gzdecode() with a bound: inflated a step at a time, so a small
     * message that inflates to gigabytes stops at $maxBytes (and a step).
     */
    public static function gunzip(string $data, int $maxBytes): string
    {
        $inflate = inflate_init(ZLIB_ENCODING_GZIP);
        $out = '';
        $failure = null;
        set_error_handler(static function (int $type, string $message) use (&$failure): bool {
            $failure = $message;
            return true;
        });
        try {
            for ($at = 0, $n = strlen($data); $at < $n && $failure === null; $at += self::INFLATE_STEP) {
                $piece = inflate_add($inflate, substr($data, $at, self::INFLATE_STEP), ZLIB_SYNC_FLUSH);
                if ($piece === false) {
                    break;
                }
                $out .= $piece;
                if (strlen($out) > $maxBytes) {
                    throw self::tooLarge(strlen($out), $maxBytes, ' once decompressed');
                }
                if (inflate_get_status($inflate) === ZLIB_STREAM_END) {
                    break;
                }
            }
        } finally {
            restore_error_handler();
        }
        if ($failure !== null || inflate_get_status($inflate) !== ZLIB_STREAM_END) {
            throw new GrpcException('invalid gzip message' . ($failure !== null ? ": $failure" : ': truncated'), Status::INTERNAL);
        }

        return $out;
    }

    private static function tooLarge(int $size, int $maxBytes, string $when = ''): GrpcException
    {
        // grpc-go's wording, which clients show as is.
        return new GrpcException(sprintf('grpc: received message larger than max (%d vs. %d)%s', $size, $maxBytes, $when),
            Status::RESOURCE_EXHAUSTED);
    }
}
