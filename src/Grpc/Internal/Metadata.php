<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;
use ValueError;

/**
 * Custom metadata as it goes on the wire (PROTOCOL-HTTP2.md), for the
 * server's Context and the Client alike: lower-case keys of 0-9 a-z _ - .,
 * printable ASCII values, and binary values under keys ending in -bin,
 * base64-encoded.
 *
 * @internal
 */
final class Metadata
{
    /**
     * Fields that are HTTP/2 or gRPC machinery rather than metadata
     * (grpc-* is reserved as a whole).
     */
    public const NOT_METADATA = ['host', 'content-type', 'content-length', 'te', 'connection', 'keep-alive',
        'transfer-encoding', 'upgrade', 'trailer', 'proxy-connection'];

    /** Whether a received field, by its lower-case name, is metadata rather than the protocol's own. */
    public static function isMetadata(string $key): bool
    {
        return $key !== '' && $key[0] !== ':' && !str_starts_with($key, 'grpc-') && !in_array($key, self::NOT_METADATA, true);
    }

    /**
     * @return array{string, string} the field as it goes on the wire
     * @throws ValueError for a reserved or malformed key, or a text value that is not printable ASCII
     */
    public static function field(string $key, string $value): array
    {
        $key = strtolower($key);
        if (preg_match('/^[0-9a-z_.\-]+$/D', $key) !== 1) {
            throw new ValueError("invalid metadata key '$key': use 0-9, a-z, '_', '-' and '.'");
        }
        if (!self::isMetadata($key)) {
            throw new ValueError("metadata key '$key' is reserved for the protocol; choose another key");
        }
        if (str_ends_with($key, '-bin')) {
            // Unpadded, as the spec asks senders to write it.
            return [$key, rtrim(base64_encode($value), '=')];
        }
        if (preg_match('/^[\x20-\x7E]*$/D', $value) !== 1) {
            throw new ValueError("metadata value of '$key' is not printable ASCII; for binary values "
                . "use a key ending in -bin ('$key-bin'), sent base64-encoded");
        }

        return [$key, $value];
    }

    /**
     * A received value as the application reads it: a -bin key's values
     * base64-decoded (padded or not), several of them joined by ", " as
     * repeated fields are.
     *
     * @throws GrpcException INTERNAL for a -bin value that is not base64, as grpc-go answers it
     */
    public static function value(string $key, string $value): string
    {
        if (!str_ends_with($key, '-bin')) {
            return $value;
        }
        $decoded = [];
        // Several values of one key arrive comma-separated (repeated fields joined, or one field listing them).
        foreach (explode(',', $value) as $part) {
            $part = trim($part);
            $bytes = preg_match('/^[A-Za-z0-9+\/]*={0,2}$/D', $part) === 1 ? base64_decode($part, true) : false;
            if ($bytes === false) {
                throw new GrpcException("malformed binary metadata in '$key': not base64", Status::INTERNAL);
            }
            $decoded[] = $bytes;
        }

        return implode(', ', $decoded);
    }
}
