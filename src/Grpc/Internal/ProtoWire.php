<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use UnexpectedValueException;

/**
 * The protobuf wire format, as far as the server's own messages need it
 * (health checking, reflection, the descriptors of generated code): fields
 * read in order, and written. Messages of applications go through their
 * generated classes instead.
 *
 * @internal
 */
final class ProtoWire
{
    private const VARINT = 0;
    private const FIXED64 = 1;
    private const LENGTH_DELIMITED = 2;
    private const FIXED32 = 5;

    /**
     * The fields of a message, in the order they come: varints as int,
     * length-delimited fields as their bytes, fixed-size ones as their raw
     * bytes. A repeated field comes once per value.
     *
     * @return list<array{int, int|string}> [field number, value]
     * @throws UnexpectedValueException for bytes that are not a protobuf message
     */
    public static function fields(string $bytes): array
    {
        $fields = [];
        $at = 0;
        $end = strlen($bytes);
        while ($at < $end) {
            $tag = self::readVarint($bytes, $at);
            $number = $tag >> 3;
            if ($number === 0) {
                throw new UnexpectedValueException("field number 0 at byte $at");
            }
            $size = match ($tag & 7) {
                self::VARINT => null,
                self::FIXED64 => 8,
                self::LENGTH_DELIMITED => self::readVarint($bytes, $at),
                self::FIXED32 => 4,
                default => throw new UnexpectedValueException('wire type ' . ($tag & 7) . " at byte $at (groups are not read)"),
            };
            if ($size === null) {
                $fields[] = [$number, self::readVarint($bytes, $at)];
                continue;
            }
            if ($size < 0 || $size > $end - $at) {
                throw new UnexpectedValueException("field $number runs past the end of the message");
            }
            $fields[] = [$number, substr($bytes, $at, $size)];
            $at += $size;
        }

        return $fields;
    }

    /**
     * @param list<array{int, int|string}> $fields
     * @return list<int|string> every value of field $number, in order
     */
    public static function repeated(array $fields, int $number): array
    {
        $values = [];
        foreach ($fields as [$at, $value]) {
            if ($at === $number) {
                $values[] = $value;
            }
        }

        return $values;
    }

    /**
     * The last value of field $number, as a parser keeps it for a field
     * that is not repeated (or a oneof's); null when it is absent.
     *
     * @param list<array{int, int|string}> $fields
     */
    public static function last(array $fields, int $number): int|string|null
    {
        $values = self::repeated($fields, $number);

        return $values === [] ? null : $values[count($values) - 1];
    }

    /**
     * The values of repeated string (or bytes) field $number; values of
     * another wire type are left out.
     *
     * @param list<array{int, int|string}> $fields
     * @return list<string>
     */
    public static function strings(array $fields, int $number): array
    {
        return array_values(array_filter(self::repeated($fields, $number), 'is_string'));
    }

    /** A length-delimited field: a string, bytes or an embedded message. */
    public static function bytesField(int $number, string $value): string
    {
        return self::varint($number << 3 | self::LENGTH_DELIMITED) . self::varint(strlen($value)) . $value;
    }

    /** A varint field: an int32, int64, enum or bool (a negative int as ten bytes, as protobuf writes it). */
    public static function varintField(int $number, int $value): string
    {
        return self::varint($number << 3 | self::VARINT) . self::varint($value);
    }

    public static function varint(int $value): string
    {
        $bytes = '';
        do {
            $byte = $value & 0x7F;
            // Logical shift: a negative value takes all ten bytes instead of looping forever.
            $value = ($value >> 7) & (PHP_INT_MAX >> 6);
            $bytes .= chr($value === 0 ? $byte : $byte | 0x80);
        } while ($value !== 0);

        return $bytes;
    }

    private static function readVarint(string $bytes, int &$at): int
    {
        $value = 0;
        $end = strlen($bytes);
        for ($shift = 0; $shift < 64; $shift += 7) {
            if ($at >= $end) {
                throw new UnexpectedValueException('a varint runs past the end of the message');
            }
            $byte = ord($bytes[$at++]);
            $value |= ($byte & 0x7F) << $shift;
            if ($byte < 0x80) {
                return $value;
            }
        }
        throw new UnexpectedValueException("a varint longer than ten bytes before byte $at");
    }
}
