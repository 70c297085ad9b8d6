<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;

/**
 * A pid file that outlived its server names a process number the system
 * may have given to something else since (after a reboot, say): stop,
 * reload and status must leave that process alone.
 */
final class StalePidFileTest extends TestCase
{
    public function testControlCommandsLeaveAProcessThatIsNotAServerAlone(): void
    {
        $dir = Cli::tempDirectory();
        $sleeper = proc_open(['sleep', '30'], [], $pipes);
        $pid = proc_get_status($sleeper)['pid'];
        file_put_contents("$dir/r.pid", "$pid\n");
        try {
            $expected = "rapier: the pid file $dir/r.pid names process $pid (sleep), which is not a Rapier server (a stale file)\n";
            foreach (['stop' => 1, 'reload' => 1, 'status' => 3] as $command => $code) {
                $result = Cli::run([$command, '--pid-file', "$dir/r.pid"]);
                $this->assertSame($code, $result->exitCode, $result->describe());
                $this->assertSame($expected, $result->stderr, $command);
            }
            $this->assertTrue(proc_get_status($sleeper)['running'], 'the sleep process was not signalled');
        } finally {
            proc_terminate($sleeper);
            proc_close($sleeper);
            Cli::removeDirectory($dir);
        }
    }
}
