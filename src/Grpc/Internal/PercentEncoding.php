<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

/**
 * grpc-message's encoding (PROTOCOL-HTTP2.md): the message's UTF-8 bytes,
 * each outside 0x20..0x7E, and '%', written as %XX.
 *
 * @internal
 */
final class PercentEncoding
{
    public static function encode(string $text): string
    {
        return (string) preg_replace_callback('/[^\x20-\x24\x26-\x7E]/',
            static fn (array $m): string => sprintf('%%%02X', ord($m[0])), $text);
    }

    /** Lenient, as the spec asks of readers: a '%' not followed by two hex digits stays as it is. */
    public static function decode(string $encoded): string
    {
        return (string) preg_replace_callback('/%([0-9A-Fa-f]{2})/', static fn (array $m): string => chr((int) hexdec($m[1])), $encoded);
    }
}
