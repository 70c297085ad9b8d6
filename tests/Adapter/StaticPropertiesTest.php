<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use PHPUnit\Framework\TestCase;
use Rapier\Adapter\Internal\StaticProperties;

final class StaticPropertiesTest extends TestCase
{
    private const SETTABLE = 'private static ?string $value = "default"; '
        . 'public static function set(string $v): void { self::$value = $v; } '
        . 'public static function get(): ?string { return self::$value; }';

    private string $dir;

    private string $ns;

    protected function setUp(): void
    {
        // Classes cannot be unloaded: every test declares its own.
        $this->ns = 'RapierStaticTest' . bin2hex(random_bytes(6));
        $this->dir = sys_get_temp_dir() . '/' . $this->ns;
        mkdir($this->dir . '/app', 0777, true);
        mkdir($this->dir . '/app/vendor');
        mkdir($this->dir . '/elsewhere');
    }

    protected function tearDown(): void
    {
        foreach (['app/vendor', 'app', 'elsewhere'] as $sub) {
            array_map('unlink', glob("$this->dir/$sub/*.php") ?: []);
            rmdir("$this->dir/$sub");
        }
        rmdir($this->dir);
    }

    public function testClassLoadedBeforeCaptureReturnsToItsCapturedValue(): void
    {
        $class = $this->declare('app', 'Booted', 'public static $value = "default"; public static array $list = [];');
        $class::$value = 'set at boot';
        $statics = $this->statics();
        $statics->capture();
        $class::$value = 'set by a request';
        $class::$list[] = 1;

        $statics->restore();

        $this->assertSame('set at boot', $class::$value);
        $this->assertSame([], $class::$list);
    }

    public function testClassAutoloadedByARequestReturnsToItsDefaults(): void
    {
        $statics = $this->statics();
        $statics->capture();
        $class = $this->autoload('app', 'Late', self::SETTABLE);
        $class::set('set by a request');

        $statics->restore();

        $this->assertSame('default', $class::get());
    }

    public function testClassRequiredOutsideTheAutoloaderIsResetAfterTheNextRequestThatAutoloads(): void
    {
        $statics = $this->statics();
        $statics->capture();
        $required = $this->declare('app', 'Required', self::SETTABLE);
        $required::set('set by a request');
        $statics->restore();
        $this->assertSame('set by a request', $required::get(), 'not examined: nothing was autoloaded');

        $this->autoload('app', 'Other', self::SETTABLE);
        $statics->restore();

        $this->assertSame('default', $required::get());
    }

    public function testVendorAndOtherDirectoriesAreLeftAlone(): void
    {
        $vendor = $this->declare('app/vendor', 'Library', 'public static $value = "default";');
        $other = $this->declare('elsewhere', 'Framework', 'public static $value = "default";');
        $statics = $this->statics();
        $statics->capture();
        $vendor::$value = 'changed';
        $other::$value = 'changed';

        $statics->restore();

        $this->assertSame('changed', $vendor::$value);
        $this->assertSame('changed', $other::$value);
    }

    private function statics(): StaticProperties
    {
        return new StaticProperties([$this->dir . '/app'], [$this->dir . '/app/vendor']);
    }

    /** Declares a class from a file in $sub and returns its name. */
    private function declare(string $sub, string $name, string $body): string
    {
        require $this->write($sub, $name, $body);

        return "$this->ns\\$name";
    }

    /** Declares a class from a file in $sub through an autoloader, as an app's classes are loaded. */
    private function autoload(string $sub, string $name, string $body): string
    {
        $file = $this->write($sub, $name, $body);
        $class = "$this->ns\\$name";
        $loader = static function (string $wanted) use ($class, $file): void {
            if ($wanted === $class) {
                require $file;
            }
        };
        spl_autoload_register($loader);
        try {
            $this->assertTrue(class_exists($class));
        } finally {
            spl_autoload_unregister($loader);
        }

        return $class;
    }

    private function write(string $sub, string $name, string $body): string
    {
        $file = "$this->dir/$sub/$name.php";
        file_put_contents($file, "<?php\nnamespace $this->ns;\nclass $name { $body }\n");

        return $file;
    }
}
