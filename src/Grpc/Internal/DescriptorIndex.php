<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use UnexpectedValueException;

/**
 * .proto files by name, and which file declares each symbol, as server
 * reflection looks them up: messages (nested ones too), their fields and
 * oneofs, enums and their values (named in the enum's scope, as protobuf
 * scopes them), services and their methods, and extensions.
 *
 * A file's imports are those it declares and the files that declare the
 * types it names: protoc's PHP generator leaves imports out of the
 * descriptors it embeds (3.21 keeps none), and a client must know them to
 * build the file. Those found are appended to the descriptor's list, so the
 * indexes of its public and weak imports still hold.
 *
 * @internal
 */
final class DescriptorIndex
{
    /** @var array<string, string> FileDescriptorProto bytes by file name */
    private array $files = [];
    /** @var array<string, list<string>> the files each file declares it imports */
    private array $declaredImports = [];
    /** @var array<string, list<string>> the fully qualified types each file names (".package.Message") */
    private array $references = [];
    /** @var array<string, list<string>> the files each file imports, found (imports()) */
    private array $imports = [];
    /** @var array<string, string> the declaring file by fully qualified name */
    private array $symbols = [];
    /** @var array<string, true> the fully qualified names of messages */
    private array $messages = [];
    /** @var array<string, array<int, string>> the declaring file by extended message, then extension number */
    private array $extensions = [];

    /**
     * Indexes one file. A file already indexed keeps its first descriptor,
     * and a symbol its first file.
     *
     * @throws UnexpectedValueException when $descriptor is not a FileDescriptorProto
     */
    public function add(string $descriptor): void
    {
        $fields = ProtoWire::fields($descriptor);
        $name = self::string($fields, 1);
        if ($name === '') {
            throw new UnexpectedValueException('a file descriptor without a name');
        }
        if (isset($this->files[$name])) {
            return;
        }
        $package = self::string($fields, 2);
        $scope = $package === '' ? '' : "$package.";
        $this->files[$name] = $descriptor;
        $this->declaredImports[$name] = ProtoWire::strings($fields, 3);
        $this->references[$name] = [];
        foreach (self::embedded($fields, 4) as $message) {
            $this->addMessage($name, $scope, $message);
        }
        foreach (self::embedded($fields, 5) as $enum) {
            $this->addEnum($name, $scope, $enum);
        }
        foreach (self::embedded($fields, 6) as $service) {
            $serviceName = $scope . self::string($service, 1);
            $this->symbols[$serviceName] ??= $name;
            foreach (self::embedded($service, 2) as $method) {
                $this->symbols[$serviceName . '.' . self::string($method, 1)] ??= $name;
                // input_type 2, output_type 3
                array_push($this->references[$name], self::string($method, 2), self::string($method, 3));
            }
        }
        foreach (self::embedded($fields, 7) as $extension) {
            $this->addExtension($name, $scope, $extension);
        }
    }

    public function has(string $file): bool
    {
        return isset($this->files[$file]);
    }

    /** The file that declares $symbol ("package.Message", "package.Service.Method"...), or null. */
    public function fileOf(string $symbol): ?string
    {
        return $this->symbols[$symbol] ?? null;
    }

    /** The file that declares extension $number of message $type, or null. */
    public function fileOfExtension(string $type, int $number): ?string
    {
        return $this->extensions[$type][$number] ?? null;
    }

    /** @return list<int>|null the extension numbers of message $type known, ascending; null for no such message */
    public function extensionNumbers(string $type): ?array
    {
        if (!isset($this->messages[$type])) {
            return null;
        }
        $numbers = array_keys($this->extensions[$type] ?? []);
        sort($numbers);

        return $numbers;
    }

    /**
     * $file's descriptor, then those of the files it imports, directly or
     * not, that are not in $sent, which gains them all: a client learns
     * each file once per stream. A file imported but not indexed is left
     * out (the client asks for it by name, and hears it is not found).
     *
     * @param array<string, true> $sent
     * @return list<string>
     */
    public function withImports(string $file, array &$sent): array
    {
        $descriptors = [];
        $queue = [$file];
        while ($queue !== []) {
            $name = array_shift($queue);
            if (!isset($this->files[$name]) || ($descriptors !== [] && isset($sent[$name]))) {
                continue;
            }
            $sent[$name] = true;
            $imports = $this->imports($name);
            $descriptors[] = $this->files[$name];
            array_push($queue, ...$imports);
        }

        return $descriptors;
    }

    /**
     * The files $file imports: those it declares, then those declaring the
     * types it names, added to its descriptor.
     *
     * @return list<string>
     */
    private function imports(string $file): array
    {
        if (isset($this->imports[$file])) {
            return $this->imports[$file];
        }
        $imports = $this->declaredImports[$file];
        foreach ($this->references[$file] as $type) {
            $declaring = str_starts_with($type, '.') ? ($this->symbols[substr($type, 1)] ?? null) : null;
            if ($declaring !== null && $declaring !== $file && !in_array($declaring, $imports, true)) {
                $imports[] = $declaring;
                // FileDescriptorProto.dependency: a repeated field's values may come anywhere, in order.
                $this->files[$file] .= ProtoWire::bytesField(3, $declaring);
            }
        }

        return $this->imports[$file] = $imports;
    }

    /** @param list<array{int, int|string}> $message DescriptorProto's fields */
    private function addMessage(string $file, string $scope, array $message): void
    {
        $name = $scope . self::string($message, 1);
        $this->symbols[$name] ??= $file;
        $this->messages[$name] = true;
        foreach (self::embedded($message, 2) as $field) {
            $this->symbols[$name . '.' . self::string($field, 1)] ??= $file;
            $this->references[$file][] = self::string($field, 6);
        }
        foreach (self::embedded($message, 8) as $oneof) {
            // Named in the message's scope, as fields are.
            $this->symbols[$name . '.' . self::string($oneof, 1)] ??= $file;
        }
        foreach (self::embedded($message, 3) as $nested) {
            $this->addMessage($file, "$name.", $nested);
        }
        foreach (self::embedded($message, 4) as $enum) {
            $this->addEnum($file, "$name.", $enum);
        }
        foreach (self::embedded($message, 6) as $extension) {
            $this->addExtension($file, "$name.", $extension);
        }
    }

    /** @param list<array{int, int|string}> $enum EnumDescriptorProto's fields */
    private function addEnum(string $file, string $scope, array $enum): void
    {
        $this->symbols[$scope . self::string($enum, 1)] ??= $file;
        foreach (self::embedded($enum, 2) as $value) {
            // C++ scoping: a value is the enum's sibling, not its child.
            $this->symbols[$scope . self::string($value, 1)] ??= $file;
        }
    }

    /** @param list<array{int, int|string}> $extension FieldDescriptorProto's fields (name 1, extendee 2, number 3) */
    private function addExtension(string $file, string $scope, array $extension): void
    {
        $this->symbols[$scope . self::string($extension, 1)] ??= $file;
        array_push($this->references[$file], self::string($extension, 2), self::string($extension, 6));
        $number = ProtoWire::last($extension, 3);
        $extendee = ltrim(self::string($extension, 2), '.');
        if (is_int($number) && $extendee !== '') {
            $this->extensions[$extendee][$number] ??= $file;
        }
    }

    /**
     * The messages in field $number, each as its fields.
     *
     * @param list<array{int, int|string}> $fields
     * @return list<list<array{int, int|string}>>
     */
    private static function embedded(array $fields, int $number): array
    {
        $messages = [];
        foreach (ProtoWire::repeated($fields, $number) as $value) {
            if (!is_string($value)) {
                throw new UnexpectedValueException("field $number is not a message");
            }
            $messages[] = ProtoWire::fields($value);
        }

        return $messages;
    }

    /** @param list<array{int, int|string}> $fields */
    private static function string(array $fields, int $number): string
    {
        $value = ProtoWire::last($fields, $number) ?? '';
        if (!is_string($value)) {
            throw new UnexpectedValueException("field $number is not a string");
        }

        return $value;
    }
}
