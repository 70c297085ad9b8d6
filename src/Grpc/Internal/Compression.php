<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;

/**
 * gRPC's message encodings (grpc/doc/compression.md) that the server reads
 * and writes: gzip (RFC 1952) and deflate, which gRPC means as the zlib
 * format (RFC 1950), as HTTP's Content-Encoding does.
 *
 * @internal
 */
final class Compression
{
    public const IDENTITY = 'identity';
    public const ENCODINGS = [self::IDENTITY, 'deflate', 'gzip'];
    /** grpc-accept-encoding, as every response says it. */
    public const ACCEPTED = 'identity,deflate,gzip';
    /** Input fed to zlib at a time: bounds what one step can inflate to (zlib's ratio is at most about 1:1032). */
    private const INFLATE_STEP = 4096;

    /** $message compressed with $encoding (gzip or deflate), at zlib's default level. */
    public static function compress(string $message, string $encoding): string
    {
        return $encoding === 'gzip' ? gzencode($message) : gzcompress($message);
    }

    /**
     * A message compressed with $encoding (gzip or deflate), inflated a step
     * at a time with a bound, so a small message that inflates to gigabytes
     * stops at $maxBytes (and a step).
     *
     * @throws GrpcException INTERNAL for data that does not inflate; RESOURCE_EXHAUSTED past $maxBytes
     */
    public static function inflate(string $data, string $encoding, int $maxBytes): string
    {
        $inflate = inflate_init($encoding === 'gzip' ? ZLIB_ENCODING_GZIP : ZLIB_ENCODING_DEFLATE);
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
                    throw MessageFraming::tooLarge(strlen($out), $maxBytes, ' once decompressed');
                }
                if (inflate_get_status($inflate) === ZLIB_STREAM_END) {
                    break;
                }
            }
        } finally {
            restore_error_handler();
        }
        if ($failure !== null || inflate_get_status($inflate) !== ZLIB_STREAM_END) {
            throw new GrpcException("invalid $encoding message" . ($failure !== null ? ": $failure" : ': truncated'),
                Status::INTERNAL);
        }

        return $out;
    }

    /**
     * The encodings a grpc-accept-encoding header lists that the server
     * writes; identity always.
     *
     * @return list<string>
     */
    public static function acceptedBy(?string $header): array
    {
        $accepted = [self::IDENTITY];
        foreach (explode(',', strtolower((string) $header)) as $name) {
            $name = trim($name);
            if (in_array($name, self::ENCODINGS, true) && !in_array($name, $accepted, true)) {
                $accepted[] = $name;
            }
        }

        return $accepted;
    }
}
