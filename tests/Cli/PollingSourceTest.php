<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\Watch\PollingSource;

/**
 * --watch-poll, and --watch where inotify cannot watch: the same files as
 * with inotify, found by scanning, and every kind of change seen.
 */
final class PollingSourceTest extends TestCase
{
    private string $dir;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/rapier-polling-' . getmypid();
        foreach (['app/Http', 'vendor/lib', 'storage/logs', '.git'] as $sub) {
            mkdir("$this->dir/$sub", 0777, true);
        }
        file_put_contents("$this->dir/app/Http/Controller.php", '<?php // v1');
    }

    protected function tearDown(): void
    {
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    public function testReportsAppFilesAndNamedFilesOnly(): void
    {
        $source = new PollingSource([$this->dir], ["$this->dir/.env"], 0.05);
        file_put_contents("$this->dir/vendor/lib/Dep.php", '<?php');
        file_put_contents("$this->dir/storage/logs/app.php", '<?php');
        file_put_contents("$this->dir/.git/hook.php", '<?php');
        file_put_contents("$this->dir/app/readme.txt", 'text');
        self::assertSame([], $source->wait(0.3));

        file_put_contents("$this->dir/app/Http/Other.php", '<?php');
        self::assertSame(["$this->dir/app/Http/Other.php"], $source->wait(2));

        file_put_contents("$this->dir/.env", 'APP_DEBUG=true');
        self::assertSame(["$this->dir/.env"], $source->wait(2));

        mkdir("$this->dir/app/New");
        file_put_contents("$this->dir/app/New/Thing.php", '<?php');
        self::assertSame(["$this->dir/app/New/Thing.php"], $source->wait(2));
    }

    public function testEditsInTheSameSecondAndOfTheSameSizeRenamesAndDeletionsAreSeen(): void
    {
        $file = "$this->dir/app/Http/Controller.php";
        $source = new PollingSource([$this->dir], [], 0.05);

        // Same size, and most likely the same mtime second as the file's creation: only the content differs.
        file_put_contents($file, '<?php // v2');
        self::assertSame([$file], $source->wait(2));

        rename($file, "$this->dir/app/Http/Renamed.php");
        self::assertSame(["$this->dir/app/Http/Controller.php", "$this->dir/app/Http/Renamed.php"], $source->wait(2));

        unlink("$this->dir/app/Http/Renamed.php");
        self::assertSame(["$this->dir/app/Http/Renamed.php"], $source->wait(2));
        self::assertSame([], $source->wait(0.2));
    }
}
