<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\ServedAppTestCase;

/** `rapier serve --watch`: an edit to the app shows up in its responses, without a restart. */
final class WatchTest extends ServedAppTestCase
{
    /** Polling every 0.5 s, settling 0.3 s, then a reload: seconds at most, this is generous. */
    private const CHANGE_TIMEOUT = 20.0;


    public function testEditReloadsTheWorkersAndABrokenEditDoesNot(): void
    {
        mkdir("$this->dir/lib");
        file_put_contents("$this->dir/lib/greeting.php", '<?php function greeting(): string { return "v1"; }');
        file_put_contents("$this->dir/app.php", '<?php require __DIR__ . "/lib/greeting.php";'
            . ' return function ($request, $response) { $response->end(greeting()); };');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '2', '--watch']);
        $master = $this->server->waitForWorkers("$this->dir/.rapier.pid", 2)['master']['pid'];
        $this->assertSame('v1', HttpClient::get($port, '/')->body);

        // An included file, same size, likely within the same second as its creation.
        file_put_contents("$this->dir/lib/greeting.php", '<?php function greeting(): string { return "v2"; }');
        $this->assertSame('v2', $this->waitForBody($port, 'v2'));
        $this->waitForOutput('rapier: greeting.php changed, reloading');
        $this->assertSame(1, substr_count($this->server->stdout(), 'changed'), 'one line for one edit' . $this->server->output());
        $this->assertSame($master, ServedApp::status("$this->dir/.rapier.pid")['master']['pid'], 'the same master');
        // One new worker may serve v2 while the other still boots: were the broken edit written
        // then, that worker could read greeting.php truncated but not yet rewritten (empty, so it loads).
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 2);

        file_put_contents("$this->dir/lib/greeting.php", '<?php function greeting(): string { return "v3" ');
        $this->waitForOutput('greeting.php changed, not reloading: ');
        $this->assertSame('v2', HttpClient::get($port, '/')->body, 'the last good code keeps serving' . "\n" . $this->server->output());
        $this->assertSame(2, ServedApp::status("$this->dir/.rapier.pid")['generations']['worker']);
    }

    public function testAWatcherThatDiesIsReplacedAndTheServerStopsIt(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return function ($request, $response) { $response->end("v1"); };');
        $port = Cli::freePort();
        $pidFile = "$this->dir/.rapier.pid";
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1', '--watch']);
        $watcher = self::watcherPid($this->server->waitForWorkers($pidFile, 1));
        $this->assertNotNull($watcher, 'the status lists the watcher' . $this->server->output());

        posix_kill($watcher, 9);
        $deadline = microtime(true) + self::CHANGE_TIMEOUT;
        do {
            usleep(20000);
            $replacement = self::watcherPid(ServedApp::status($pidFile) ?? ['workers' => []]);
        } while (($replacement === null || $replacement === $watcher) && microtime(true) < $deadline);
        $this->assertNotSame($watcher, $replacement, 'a new watcher' . $this->server->output());
        $this->assertNotNull($replacement, 'a new watcher' . $this->server->output());

        file_put_contents("$this->dir/app.php", '<?php return function ($request, $response) { $response->end("v2!"); };');
        $this->assertSame('v2!', $this->waitForBody($port, 'v2!'));
        $this->assertSame(0, $this->server->stop());
        $this->assertFalse(file_exists("/proc/$replacement"), 'the watcher stopped with the server');
    }

    /**
     * --watch-poll: the watcher scans instead of asking inotify (which never
     * hears of a change on a VM's shared folder or NFS), and still reloads.
     */
    public function testWatchPollFindsChangesByScanning(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return function ($request, $response) { $response->end("v1"); };');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1', '--watch-poll']);
        $watcher = self::watcherPid($this->server->waitForWorkers("$this->dir/.rapier.pid", 1));
        $this->assertNotNull($watcher, 'the status lists the watcher' . $this->server->output());
        $this->assertStringContainsString('watching for changes by polling', $this->server->stdout());
        $fds = array_map(fn (string $fd): string => (string) @readlink($fd), glob("/proc/$watcher/fd/*") ?: []);
        $this->assertNotContains('anon_inode:inotify', $fds, 'no inotify instance in the watcher');

        file_put_contents("$this->dir/app.php", '<?php return function ($request, $response) { $response->end("v2"); };');
        $this->assertSame('v2', $this->waitForBody($port, 'v2'));
        $this->waitForOutput('rapier: app.php changed, reloading');
    }

    /** @param array<string, mixed> $doc */
    private static function watcherPid(array $doc): ?int
    {
        foreach ($doc['workers'] as $w) {
            if ($w['role'] === 'user_process' && $w['state'] === 'ready') {
                return $w['pid'];
            }
        }

        return null;
    }

    private function waitForBody(int $port, string $expected): string
    {
        $deadline = microtime(true) + self::CHANGE_TIMEOUT;
        do {
            $body = HttpClient::get($port, '/')->body;
            if ($body === $expected) {
                return $body;
            }
            usleep(50000);
        } while (microtime(true) < $deadline);
        $this->fail("still '$body' after " . self::CHANGE_TIMEOUT . " s\n" . $this->server->output());
    }

    private function waitForOutput(string $text): void
    {
        $deadline = microtime(true) + self::CHANGE_TIMEOUT;
        while (!str_contains($this->server->stdout(), $text)) {
            if (microtime(true) > $deadline) {
                $this->fail("no '$text' after " . self::CHANGE_TIMEOUT . " s\n" . $this->server->output());
            }
            usleep(50000);
        }
    }
}
