<?php

declare(strict_types=1);

namespace Rapier\Tests\Grpc;

use PHPUnit\Framework\TestCase;
use Rapier\Grpc\Internal\DescriptorIndex;
use Rapier\Grpc\Internal\GeneratedDescriptors;
use Rapier\Grpc\Internal\ProtoWire;
use UnexpectedValueException;

/**
 * What server reflection is built on, without a server: the protobuf wire
 * format, descriptors read from the source of generated code (each way
 * protoc has written them), and the index of files and symbols.
 */
final class DescriptorsTest extends TestCase
{
    public function testVarintsAndFieldsRoundTrip(): void
    {
        $this->assertSame("\x00", ProtoWire::varint(0));
        $this->assertSame("\xac\x02", ProtoWire::varint(300));
        $this->assertSame(str_repeat("\xff", 9) . "\x01", ProtoWire::varint(-1), 'a negative int takes ten bytes');
        $this->assertSame(str_repeat("\xff", 8) . "\x7f", ProtoWire::varint(PHP_INT_MAX));

        $message = ProtoWire::varintField(1, 150) . ProtoWire::bytesField(2, 'testing') . ProtoWire::varintField(3, -2)
            . ProtoWire::bytesField(2, '') . "\x25\x01\x02\x03\x04" . "\x29" . str_repeat("\x07", 8);
        $this->assertSame("\x08\x96\x01\x12\x07testing", substr($message, 0, 12), 'as protobuf writes it');
        $this->assertSame([[1, 150], [2, 'testing'], [3, -2], [2, ''], [4, "\x01\x02\x03\x04"], [5, str_repeat("\x07", 8)]],
            ProtoWire::fields($message));
        $fields = ProtoWire::fields($message);
        $this->assertSame([1 => 150, 2 => '', 3 => -2, 4 => "\x01\x02\x03\x04", 5 => str_repeat("\x07", 8), 6 => null],
            array_combine(range(1, 6), array_map(static fn (int $number) => ProtoWire::last($fields, $number), range(1, 6))));
        $this->assertSame(['testing', ''], ProtoWire::strings($fields, 2));
        $this->assertSame([], ProtoWire::strings($fields, 1), 'a varint is not a string');
        $this->assertSame(['testing', ''], ProtoWire::repeated(ProtoWire::fields($message), 2));

        $truncated = ["\x12\x05abc", "\x08", "\x08\x80", "\x00\x01", "\x0b", "\x25\x01", str_repeat("\xff", 11)];
        foreach ($truncated as $bad) {
            try {
                ProtoWire::fields($bad);
                $this->fail('no exception for ' . bin2hex($bad));
            } catch (UnexpectedValueException) {
                $this->addToAssertionCount(1);
            }
        }
    }

    public function testStringLiteralsAreDecodedAsPhpDoes(): void
    {
        mt_srand(20261125);
        $literals = ["'it\\'s'", "'a\\\\b\\'c\\n'", '"tab\\tnew\\nline \\$x \\" \\\\ \\e\\f\\v\\r"', '"\\101\\0\\x41\\x4g\\u{e9}\\u{1F600}"',
            '"\\q \\u \\{ \\x"', "''", '""'];
        for ($i = 0; $i < 50; $i++) {
            $bytes = implode('', array_map(static fn (): string => chr(mt_rand(0, 255)), range(0, mt_rand(0, 300))));
            // protoc's two ways: single quoted with \ and ' escaped (3.21), double quoted with \x escapes.
            $literals[] = "'" . strtr($bytes, ['\\' => '\\\\', "'" => "\\'"]) . "'";
            $literals[] = '"' . implode('', array_map(static fn (string $byte): string => match (mt_rand(0, 2)) {
                0 => sprintf('\\x%02X', ord($byte)),
                1 => sprintf('\\%03o', ord($byte)),
                default => ctype_alnum($byte) ? $byte : sprintf('\\x%x', ord($byte)),
            }, str_split($bytes))) . '"';
        }
        foreach ($literals as $literal) {
            $tokens = token_get_all("<?php $literal;");
            $this->assertSame(T_CONSTANT_ENCAPSED_STRING, $tokens[1][0], $literal);
            // The oracle: PHP itself, on a literal that cannot run anything.
            $this->assertSame(eval("return $literal;"), GeneratedDescriptors::literal($literal), $literal);
        }
    }

    public function testTheDescriptorSetIsReadFromTheGeneratedSourceOfEachProtocVersion(): void
    {
        $source = (string) file_get_contents(dirname(__DIR__, 2) . '/examples/grpc/generated/GPBMetadata/Helloworld.php');
        $set = GeneratedDescriptors::fromSource($source);
        $this->assertNotNull($set);
        $files = GeneratedDescriptors::files($set);
        $this->assertCount(1, $files);
        $index = new DescriptorIndex();
        $index->add($files[0]);
        $this->assertSame('helloworld.proto', $index->fileOf('helloworld.Greeter.SayHelloChat'));

        // protoc before 3.9: hex in literals joined with `.`, inside hex2bin(); later ones: \x escapes, double quoted.
        $hex = str_split(bin2hex($set), 80);
        $old = sprintf("<?php\nclass Old {\n  public static \$is_initialized = false;\n  public static function initOnce() {\n"
            . "    \$pool->internalAddGeneratedFile(hex2bin(\n        %s\n    ), true);\n  }\n}\n",
            implode(" .\n        ", array_map(static fn (string $piece): string => "\"$piece\"", $hex)));
        $this->assertSame($set, GeneratedDescriptors::fromSource($old));
        $escaped = '"' . implode('', array_map(static fn (string $byte): string => sprintf('\\x%02X', ord($byte)),
            str_split($set))) . '"';
        $new = "<?php\n\$pool->internalAddGeneratedFile(\n    $escaped,\n    true\n);\n";
        $this->assertSame($set, GeneratedDescriptors::fromSource($new));

        $this->assertNull(GeneratedDescriptors::fromSource('<?php $pool->internalAddGeneratedFile($data, true);'));
        $this->assertNull(GeneratedDescriptors::fromSource('<?php echo "internalAddGeneratedFile";'));
        $this->assertSame([], GeneratedDescriptors::files("\x0a\x05ab"), 'not a descriptor set');
    }

    public function testTheIndexFindsEverySymbolAndTheImportsOfTheTypesAFileNames(): void
    {
        // a.proto (package pkg) names other.T from b.proto without declaring the import, as generated code's
        // descriptors come; its message pkg.M has a field, a oneof, a nested message and enum, and an extension.
        $field = static fn (string $name, int $number, string $typeName = '', string $extendee = ''): string
            => ProtoWire::bytesField(1, $name) . ($extendee === '' ? '' : ProtoWire::bytesField(2, $extendee))
            . ProtoWire::varintField(3, $number) . ($typeName === '' ? '' : ProtoWire::bytesField(6, $typeName));
        $message = ProtoWire::bytesField(1, 'M')
            . ProtoWire::bytesField(2, $field('x', 1, '.other.T'))
            . ProtoWire::bytesField(3, ProtoWire::bytesField(1, 'N'))
            . ProtoWire::bytesField(4, ProtoWire::bytesField(1, 'E') . ProtoWire::bytesField(2, ProtoWire::bytesField(1, 'V')))
            . ProtoWire::bytesField(6, $field('more', 100, '', '.pkg.M'))
            . ProtoWire::bytesField(8, ProtoWire::bytesField(1, 'choice'));
        $method = ProtoWire::bytesField(1, 'Do') . ProtoWire::bytesField(2, '.pkg.M') . ProtoWire::bytesField(3, '.other.T');
        $a = ProtoWire::bytesField(1, 'a.proto') . ProtoWire::bytesField(2, 'pkg') . ProtoWire::bytesField(4, $message)
            . ProtoWire::bytesField(6, ProtoWire::bytesField(1, 'S') . ProtoWire::bytesField(2, $method))
            . ProtoWire::bytesField(7, $field('top', 101, '', '.pkg.M'));
        $b = ProtoWire::bytesField(1, 'b.proto') . ProtoWire::bytesField(2, 'other')
            . ProtoWire::bytesField(4, ProtoWire::bytesField(1, 'T'));
        $index = new DescriptorIndex();
        $index->add($a);
        $index->add($b);
        $index->add(ProtoWire::bytesField(1, 'a.proto'));

        foreach (['pkg.M', 'pkg.M.x', 'pkg.M.choice', 'pkg.M.N', 'pkg.M.E', 'pkg.M.V', 'pkg.M.more', 'pkg.top', 'pkg.S',
            'pkg.S.Do'] as $symbol) {
            $this->assertSame('a.proto', $index->fileOf($symbol), $symbol);
        }
        $this->assertSame('b.proto', $index->fileOf('other.T'));
        foreach (['pkg.M.E.V', 'pkg', 'M', 'pkg.T'] as $symbol) {
            $this->assertNull($index->fileOf($symbol), $symbol);
        }
        $this->assertSame([100, 101], $index->extensionNumbers('pkg.M'));
        $this->assertSame([], $index->extensionNumbers('other.T'));
        $this->assertNull($index->extensionNumbers('pkg.S'), 'a service is not a message');
        $this->assertSame('a.proto', $index->fileOfExtension('pkg.M', 101));
        $this->assertNull($index->fileOfExtension('pkg.M', 102));

        $sent = [];
        $files = $index->withImports('a.proto', $sent);
        $this->assertSame([$a . ProtoWire::bytesField(3, 'b.proto'), $b], $files, 'the import found is declared');
        $this->assertSame(['b.proto'], ProtoWire::repeated(ProtoWire::fields($files[0]), 3));
        $this->assertSame([$files[0]], $index->withImports('a.proto', $sent), 'b.proto was sent on this stream');
        $this->assertSame([$b], $index->withImports('b.proto', $sent), 'a file asked for comes again');

        $this->expectException(UnexpectedValueException::class);
        $index->add(ProtoWire::bytesField(2, 'no name'));
    }
}
