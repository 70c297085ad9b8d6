<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\Process;
use Rapier\Http\Server;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use ValueError;

/** `rapier serve --daemon`: returns once the server is up, which runs on in a session of its own. */
final class DaemonTest extends TestCase
{
    private string $dir;
    private string $pidFile;

    protected function setUp(): void
    {
        $this->dir = Cli::tempDirectory();
        $this->pidFile = "$this->dir/.rapier.pid";
        file_put_contents("$this->dir/app.php", '<?php return function ($request, $response) { $response->end("daemon " . getmypid()); };');
    }

    protected function tearDown(): void
    {
        // A daemon is nobody's child here: stop it through its pid file.
        $pid = (int) @file_get_contents($this->pidFile);
        if (Process::alive($pid)) {
            posix_kill($pid, SIGTERM);
            for ($i = 0; $i < 300 && file_exists($this->pidFile); $i++) {
                usleep(100000);
            }
        }
        Cli::removeDirectory($this->dir);
    }

    public function testDaemonReturnsOnceServingAndKeepsRunning(): void
    {
        $port = Cli::freePort();

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', (string) $port, '--workers', '2', '--daemon']);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $pid = (int) file_get_contents($this->pidFile);
        $this->assertSame("rapier: serving $this->dir/app.php on http://127.0.0.1:$port in the background (pid $pid); "
            . "log: $this->dir/.rapier.log\n", $result->stdout);
        $this->assertTrue(Process::alive($pid), 'the master outlives the command');
        $this->assertSame($pid, posix_getsid($pid), 'the master leads a session of its own (no terminal)');
        $this->assertNotSame(posix_getsid(0), posix_getsid($pid));
        $this->assertStringStartsWith('daemon ', HttpClient::get($port, '/')->body);

        $stop = Cli::run(['stop', "$this->dir/app.php"]);
        $this->assertSame(0, $stop->exitCode, $stop->describe());
        $this->assertFalse(Process::alive($pid), 'the master has exited');
        $log = (string) file_get_contents("$this->dir/.rapier.log");
        $this->assertStringContainsString("rapier: serving $this->dir/app.php (callable) on http://127.0.0.1:$port", $log);
        $this->assertStringContainsString("[rapier master $pid] notice: master $pid stopped", $log, 'the output went to the log');
    }

    public function testServeUnderAnotherNameOfPhpRefusesARunningDaemonsPidFile(): void
    {
        if (file_get_contents(PHP_BINARY, false, null, 0, 4) !== "\x7fELF") {
            // make asan's scripts/asan/php: a link to it would not find the files beside it.
            $this->markTestSkipped('PHP_BINARY is a wrapper script, not PHP itself');
        }
        $daemon = Cli::run(['serve', "$this->dir/app.php", '--port', (string) Cli::freePort(), '--workers', '1', '--daemon']);
        $this->assertSame(0, $daemon->exitCode, $daemon->describe());
        $pid = (int) file_get_contents($this->pidFile);
        // The daemon runs PHP_BINARY ("php8.2"); a shell's `php` is the same PHP under another name.
        symlink(PHP_BINARY, "$this->dir/php");
        $command = Cli::command(['serve', "$this->dir/app.php", '--port', (string) Cli::freePort(), '--workers', '1']);
        $command[0] = "$this->dir/php";

        $second = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $deadline = microtime(true) + 20;
        while (($status = proc_get_status($second))['running'] && microtime(true) < $deadline) {
            usleep(50000);
        }
        if ($status['running']) {
            proc_terminate($second, SIGTERM);
        }
        $stderr = stream_get_contents($pipes[2]);
        proc_close($second);

        $this->assertFalse($status['running'], 'the second serve started serving');
        $this->assertSame(1, $status['exitcode'], $stderr);
        $this->assertStringContainsString("a server is already running with pid file $this->pidFile (pid $pid)", $stderr);
        $this->assertSame($pid, (int) file_get_contents($this->pidFile), 'the pid file still names the daemon');
        $this->assertSame(0, Cli::run(['status', '--pid-file', $this->pidFile])->exitCode, 'the daemon is still reachable');
    }

    public function testDaemonReportsAFailedStart(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return "not an app";');

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', (string) Cli::freePort(), '--workers', '1', '--daemon']);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: the server did not start: $this->dir/app.php returned a string; expected a callable(Request, Response), "
            . "a PSR-15 RequestHandlerInterface, a Laravel or Lumen application, a Symfony HttpKernelInterface or a Slim\\App\n", $result->stderr);
        $this->assertFileDoesNotExist($this->pidFile);
    }

    public function testLogFileReceivesTheServersLog(): void
    {
        try {
            new Server('127.0.0.1', 8080, ['error_log' => "$this->dir/probe.log"]);
        } catch (ValueError $e) {
            $this->markTestSkipped("Rapier\\Http\\Server has no error_log option yet: {$e->getMessage()}");
        }
        $port = Cli::freePort();
        $log = "$this->dir/logs/server.log";
        mkdir("$this->dir/logs");

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', (string) $port, '--workers', '1', '--daemon', '--log-file', $log]);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertStringEndsWith("log: $log\n", $result->stdout);
        $this->assertNotNull(ServedApp::status($this->pidFile));
        $this->assertSame(0, Cli::run(['stop', '--pid-file', $this->pidFile])->exitCode);
        $this->assertStringContainsString('notice: master ', (string) file_get_contents($log));
        $this->assertFileDoesNotExist("$this->dir/.rapier.log");
    }
}
