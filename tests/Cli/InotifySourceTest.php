<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\Watch\InotifySource;

/** What --watch reloads for: PHP files of the app and the named files, not dependencies, caches or logs. */
final class InotifySourceTest extends TestCase
{
    private string $dir;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/rapier-inotify-' . getmypid();
        foreach (['app/Http', 'vendor/lib', 'storage/logs'] as $sub) {
            mkdir("$this->dir/$sub", 0777, true);
        }
    }

    protected function tearDown(): void
    {
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    public function testReportsAppFilesAndNamedFilesOnly(): void
    {
        $source = new InotifySource([$this->dir], ["$this->dir/.env"]);
        file_put_contents("$this->dir/vendor/lib/Dep.php", '<?php');
        file_put_contents("$this->dir/storage/logs/app.log", 'line');
        file_put_contents("$this->dir/app/readme.txt", 'text');
        self::assertSame([], $source->wait(0.2));

        file_put_contents("$this->dir/app/Http/Controller.php", '<?php');
        self::assertSame(["$this->dir/app/Http/Controller.php"], $source->wait(2));

        file_put_contents("$this->dir/.env", 'APP_DEBUG=true');
        self::assertSame(["$this->dir/.env"], $source->wait(2));

        mkdir("$this->dir/app/New");
        file_put_contents("$this->dir/app/New/Thing.php", '<?php');
        // Written before the new directory's watch existed: still reported, from the directory's creation.
        self::assertSame(["$this->dir/app/New/Thing.php"], $source->wait(2));
    }

    public function testChangesLostToAQueueOverflowStillCount(): void
    {
        $queue = (int) @file_get_contents('/proc/sys/fs/inotify/max_queued_events');
        if ($queue <= 0 || $queue > 100000) {
            self::markTestSkipped("fs.inotify.max_queued_events is $queue");
        }
        $source = new InotifySource([$this->dir], []);
        // None of these is reported on its own, but twice as many events as the queue holds overflow it.
        for ($i = 0; $i < $queue; $i++) {
            touch("$this->dir/app/f$i.txt");
        }
        self::assertSame([$this->dir], $source->wait(2));

        file_put_contents("$this->dir/app/Http/After.php", '<?php');
        self::assertSame(["$this->dir/app/Http/After.php"], $source->wait(2));
    }
}
