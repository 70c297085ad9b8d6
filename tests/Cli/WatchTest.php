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
