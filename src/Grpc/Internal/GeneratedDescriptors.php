<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use ReflectionClass;

/**
 * The file descriptors (serialized FileDescriptorProto) of the code protoc
 * generated, for server reflection. Each .proto file's metadata class
 * (`GPBMetadata\Helloworld`, or in its `php_metadata_namespace`) hands its
 * descriptors to the protobuf runtime as a string literal in initOnce(),
 * and neither runtime gives them back: they are read from the class's
 * source instead, a literal, never run. Only classes already loaded are
 * read; loading a message class loads its file's, and those of the files
 * it imports.
 *
 * @internal
 */
final class GeneratedDescriptors
{
    /**
     * The descriptors of every metadata class loaded; a class of the
     * protobuf C extension (its well-known types) has no source and is
     * left out.
     *
     * @return array<string, list<string>> FileDescriptorProto bytes by the PHP file they were read from
     */
    public static function loaded(): array
    {
        $descriptors = [];
        foreach (get_declared_classes() as $class) {
            if (!method_exists($class, 'initOnce') || !property_exists($class, 'is_initialized')) {
                continue;
            }
            $file = (new ReflectionClass($class))->getFileName();
            if ($file === false || isset($descriptors[$file])) {
                continue;
            }
            $set = self::fromSource((string) @file_get_contents($file));
            if ($set !== null) {
                $descriptors[$file] = self::files($set);
            }
        }

        return $descriptors;
    }

    /**
     * The argument of internalAddGeneratedFile() in a metadata class's
     * source: a FileDescriptorSet, written by protoc as one string literal,
     * single or double quoted, or in versions before 3.9 as literals joined
     * with `.` inside hex2bin(). Null when the source holds no such call.
     */
    public static function fromSource(string $source): ?string
    {
        $tokens = array_values(array_filter(token_get_all($source),
            static fn (array|string $token): bool => !is_array($token)
                || !in_array($token[0], [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)));
        foreach ($tokens as $at => $token) {
            if (is_array($token) && $token[0] === T_STRING && $token[1] === 'internalAddGeneratedFile'
                && ($tokens[$at + 1] ?? null) === '(') {
                return self::argument($tokens, $at + 2);
            }
        }

        return null;
    }

    /**
     * The value of one PHP string literal token (T_CONSTANT_ENCAPSED_STRING,
     * so never one that interpolates), its escapes decoded as PHP does.
     */
    public static function literal(string $token): string
    {
        $body = substr($token, 1, -1);
        if ($token[0] === "'") {
            return strtr($body, ['\\\\' => '\\', "\\'" => "'"]);
        }

        return (string) preg_replace_callback('/\\\\(?:([nrtvef\\\\$"])|([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u\{([0-9A-Fa-f]+)\})/',
            static fn (array $escape): string => match (true) {
                ($escape[1] ?? '') !== '' => ['n' => "\n", 'r' => "\r", 't' => "\t", 'v' => "\v", 'e' => "\e",
                    'f' => "\f", '\\' => '\\', '$' => '$', '"' => '"'][$escape[1]],
                ($escape[2] ?? '') !== '' => chr(octdec($escape[2]) & 0xFF),
                ($escape[3] ?? '') !== '' => chr(hexdec($escape[3])),
                default => self::utf8((int) hexdec($escape[4])),
            }, $body);
    }

    /**
     * The FileDescriptorProtos in a FileDescriptorSet (field 1, repeated).
     *
     * @return list<string>
     */
    public static function files(string $set): array
    {
        try {
            return ProtoWire::strings(ProtoWire::fields($set), 1);
        } catch (\UnexpectedValueException) {
            return [];
        }
    }

    /** @param list<array|string> $tokens */
    private static function argument(array $tokens, int $at): ?string
    {
        $hex = false;
        if (is_array($tokens[$at] ?? null) && strtolower(ltrim($tokens[$at][1], '\\')) === 'hex2bin'
            && ($tokens[$at + 1] ?? null) === '(') {
            $hex = true;
            $at += 2;
        }
        $value = '';
        while (is_array($tokens[$at] ?? null) && $tokens[$at][0] === T_CONSTANT_ENCAPSED_STRING) {
            $value .= self::literal($tokens[$at][1]);
            if (($tokens[$at + 1] ?? null) !== '.') {
                break;
            }
            $at += 2;
        }
        if ($value === '') {
            return null;
        }

        return $hex ? (@hex2bin($value) ?: null) : $value;
    }

    private static function utf8(int $codePoint): string
    {
        return match (true) {
            $codePoint < 0x80 => chr($codePoint),
            $codePoint < 0x800 => chr(0xC0 | $codePoint >> 6) . chr(0x80 | $codePoint & 0x3F),
            $codePoint < 0x10000 => chr(0xE0 | $codePoint >> 12) . chr(0x80 | $codePoint >> 6 & 0x3F)
                . chr(0x80 | $codePoint & 0x3F),
            default => chr(0xF0 | $codePoint >> 18) . chr(0x80 | $codePoint >> 12 & 0x3F)
                . chr(0x80 | $codePoint >> 6 & 0x3F) . chr(0x80 | $codePoint & 0x3F),
        };
    }
}
