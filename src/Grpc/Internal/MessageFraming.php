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
    /** Bytes asked of a stream at a time. */
    private const READ_STEP = 65536;

    /**
     * A message's frame: compressed with $encoding (the call's grpc-encoding)
     * unless that is identity or would not make it smaller, which the flag
     * byte tells the client message by message.
     */
    public static function encode(string $message, string $encoding = Compression::IDENTITY): string
    {
        if ($encoding !== Compression::IDENTITY) {
            $compressed = Compression::compress($message, $encoding);
            if (strlen($compressed) < strlen($message)) {
                return "\1" . pack('N', strlen($compressed)) . $compressed;
            }
        }

        return "\0" . pack('N', strlen($message)) . $message;
    }

    /**
     * The messages of a request body, in order, decompressed, read from
     * $stream while it arrives: each is yielded as soon as it is whole, and
     * the next one is not read until the consumer asks for it, so a reply
     * can go out before the client sends its next message. A message's size
     * is checked against $maxBytes from its prefix, before the message is
     * read, and a compressed one's again as it is inflated.
     *
     * @param resource $stream read until fread() gives '' (its end)
     * @param string $encoding the request's grpc-encoding: identity, deflate or gzip
     * @return Generator<int, string>
     * @throws GrpcException INTERNAL for a truncated frame, a bad flag or bad
     *         compressed data; RESOURCE_EXHAUSTED for a message over $maxBytes;
     *         and whatever reading $stream throws
     */
    public static function read($stream, string $encoding, int $maxBytes): Generator
    {
        while (($prefix = self::readUpTo($stream, self::PREFIX_BYTES)) !== '') {
            if (strlen($prefix) < self::PREFIX_BYTES) {
                throw new GrpcException(sprintf('truncated message: %d bytes of a 5-byte prefix', strlen($prefix)), Status::INTERNAL);
            }
            $flag = ord($prefix[0]);
            $size = unpack('N', $prefix, 1)[1];
            if ($flag > 1) {
                throw new GrpcException("invalid compressed flag $flag in a message prefix", Status::INTERNAL);
            }
            if ($size > $maxBytes) {
                throw self::tooLarge($size, $maxBytes);
            }
            $message = self::readUpTo($stream, $size);
            if (strlen($message) < $size) {
                throw new GrpcException(sprintf('truncated message: %d of %d bytes', strlen($message), $size), Status::INTERNAL);
            }
            if ($flag === 1) {
                if ($encoding === Compression::IDENTITY) {
                    // PROTOCOL-HTTP2.md: a compressed message without a grpc-encoding is a protocol error.
                    throw new GrpcException('compressed message without grpc-encoding', Status::INTERNAL);
                }
                $message = Compression::inflate($message, $encoding, $maxBytes);
            }
            yield $message;
        }
    }

    /**
     * $length bytes of $stream, fewer only at its end. Read a step at a
     * time: fread() allocates what it is asked for, and a message's bytes
     * arrive in pieces.
     *
     * @param resource $stream
     */
    private static function readUpTo($stream, int $length): string
    {
        $data = '';
        while (strlen($data) < $length) {
            $piece = fread($stream, min($length - strlen($data), self::READ_STEP));
            if ($piece === false) {
                // A failed read is not the end of the body: the messages after it would be lost unnoticed.
                throw new GrpcException('the request body could not be read', Status::INTERNAL);
            }
            if ($piece === '') {
                break;
            }
            $data .= $piece;
        }

        return $data;
    }

    public static function tooLarge(int $size, int $maxBytes, string $when = ''): GrpcException
    {
        // grpc-go's wording, which clients show as is.
        return new GrpcException(sprintf('grpc: received message larger than max (%d vs. %d)%s', $size, $maxBytes, $when),
            Status::RESOURCE_EXHAUSTED);
    }
}
