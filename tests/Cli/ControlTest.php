<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\ServedAppTestCase;

/** `rapier status | reload | stop` against a running server with two workers. */
final class ControlTest extends ServedAppTestCase
{
    private string $pidFile;
    private int $port;

    protected function setUp(): void
    {
        parent::setUp();
        $this->pidFile = "$this->dir/.rapier.pid";
        file_put_contents("$this->dir/app.php", '<?php return function ($request, $response) { $response->end((string) getmypid()); };');
        $this->port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $this->port, '--workers', '2', '--concurrency', '8']);
        $this->server->waitForWorkers($this->pidFile, 2);
    }

    public function testStatusTableListsEachWorker(): void
    {
        for ($i = 0; $i < 3; $i++) {
            HttpClient::get($this->port, '/');
        }

        $result = Cli::run(['status', '--pid-file', $this->pidFile]);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $lines = explode("\n", rtrim($result->stdout));
        $this->assertCount(4, $lines, $result->stdout);
        $this->assertMatchesRegularExpression('/^master ' . $this->server->pid() . ', up [0-9.]+s, 2 workers, 0 task workers; 3 requests served, 0 in flight, 0 WebSockets open, 0 shed, 0 abandoned, 0 slow, 0 failed TLS handshakes; restarts 0, recycles 0$/', $lines[0]);
        $this->assertMatchesRegularExpression('/^PID +ROLE +# +GEN +STATE +UPTIME +REQUESTS +IN-FLIGHT +LIMIT +SHED +ABANDONED +SLOW +TLS-FAIL +CONNS +WS +MEMORY +RSS$/', $lines[1]);
        $doc = ServedApp::status($this->pidFile);
        $memory = self::zendAllocatorOff() ? '0 B' : '[0-9.]+ (KiB|MiB)';
        foreach (array_slice($lines, 2) as $i => $row) {
            $this->assertMatchesRegularExpression('/^' . $doc['workers'][$i]['pid'] . ' +worker +' . $doc['workers'][$i]['index']
                . ' +1 +ready +[0-9.]+s +[0-3] +0 +8 +0 +0 +0 +0 +[0-9] +0 +' . $memory . ' +[0-9.]+ MiB$/', $row);
        }
    }

    public function testStatusJsonIsTheMastersDocument(): void
    {
        HttpClient::get($this->port, '/');

        $result = Cli::run(['status', '--pid-file', $this->pidFile, '--json']);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $doc = json_decode($result->stdout, true, 512, JSON_THROW_ON_ERROR);
        $this->assertSame($this->server->pid(), $doc['master']['pid']);
        // The default shutdown_timeout (30 s) and the master's 5 s of grace: what `stop` waits for at least.
        $this->assertSame(35.0, (float) $doc['master']['shutdown_timeout']);
        $this->assertCount(2, $doc['workers']);
        $this->assertSame(1, $doc['totals']['requests']);
        foreach ($doc['workers'] as $worker) {
            $this->assertSame('ready', $worker['state']);
            $this->assertSame(8, $worker['concurrency_limit'], '--concurrency, no --latency-target to move it');
            $this->assertSame(0, $worker['shed']);
            $this->assertSame(0, $worker['slow']);
            $this->assertSame(0, $worker['tls_handshake_failures']);
            $this->assertSame(0, $worker['websockets']);
            if (!self::zendAllocatorOff()) {
                $this->assertGreaterThan(0, $worker['memory']);
            }
            $this->assertGreaterThan(0, $worker['rss']);
        }
    }

    /** Under make asan (USE_ZEND_ALLOC=0) PHP counts no memory in use: memory_get_usage() is 0. */
    private static function zendAllocatorOff(): bool
    {
        return getenv('USE_ZEND_ALLOC') === '0';
    }

    public function testStatusFindsThePidFileBesideTheAppGiven(): void
    {
        $result = Cli::run(['status', "$this->dir/app.php", '--json']);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertSame($this->server->pid(), json_decode($result->stdout, true)['master']['pid']);
    }

    public function testReloadReplacesEveryWorkerAndKeepsServing(): void
    {
        $before = array_column(ServedApp::status($this->pidFile)['workers'], 'pid');

        $result = Cli::run(['reload', '--pid-file', $this->pidFile]);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertSame('rapier: reloaded (pid ' . $this->server->pid() . "): generation 2 serving\n", $result->stdout);
        $after = $this->server->waitForWorkers($this->pidFile, 2);
        $this->assertSame(2, $after['generations']['worker']);
        $this->assertSame([], array_intersect($before, array_column($after['workers'], 'pid')), 'no worker of generation 1 is left');
        $this->assertContains((int) HttpClient::get($this->port, '/')->body, array_column($after['workers'], 'pid'));
    }

    public function testReloadOfAnAppThatNoLongerLoadsKeepsTheOldWorkers(): void
    {
        $before = array_column(ServedApp::status($this->pidFile)['workers'], 'pid');
        file_put_contents("$this->dir/app.php", '<?php return 42;');

        $result = Cli::run(['reload', '--pid-file', $this->pidFile, '--timeout', '3']);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: the reload failed: the new workers did not start (see the server's log); "
            . "generation 1 keeps serving\n", $result->stderr);
        $this->assertContains((int) HttpClient::get($this->port, '/')->body, $before);
        $this->assertMatchesRegularExpression('/^rapier: worker [01] cannot start: ' . preg_quote("$this->dir/app.php returned int 42;", '/') . '/m',
            $this->server->stderr());
        $this->assertTrue($this->server->running(), $this->server->output());
    }

    public function testReloadDuringAnotherReloadWaitsForTheOneAfterIt(): void
    {
        // The workers of the next generations take a second to load the app: a reload is still under way below.
        file_put_contents("$this->dir/app.php", '<?php usleep(1000000); return function ($request, $response) { $response->end("v2"); };');
        posix_kill($this->server->pid(), SIGUSR1);
        for ($i = 0; $i < 500 && (ServedApp::status($this->pidFile)['newest_generations']['worker'] ?? 0) !== 2; $i++) {
            usleep(10000);
        }
        $this->assertSame(1, ServedApp::status($this->pidFile)['generations']['worker'], 'generation 2 is still starting');
        file_put_contents("$this->dir/app.php", '<?php usleep(1000000); return function ($request, $response) { $response->end("v3"); };');

        $result = Cli::run(['reload', '--pid-file', $this->pidFile]);

        // Generation 2 loaded the app before this reload was asked for: only 3 runs the code on disk now.
        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertSame('rapier: reloaded (pid ' . $this->server->pid() . "): generation 3 serving\n", $result->stdout);
        $this->assertSame('v3', HttpClient::get($this->port, '/')->body);
    }

    public function testStopWaitsUntilTheServerHasExited(): void
    {
        $result = Cli::run(['stop', '--pid-file', $this->pidFile]);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertSame('rapier: stopped (pid ' . $this->server->pid() . ")\n", $result->stdout);
        $this->assertFileDoesNotExist($this->pidFile);
        $this->assertFileDoesNotExist("$this->pidFile.sock");
        $this->assertTrue($this->server->waitForExit(10.0));
        $this->assertSame(0, $this->server->exitCode(), $this->server->output());
        $this->assertFalse(@stream_socket_client("tcp://127.0.0.1:$this->port", $errno, $error, 1), 'nothing listens any more');

        $status = Cli::run(['status', '--pid-file', $this->pidFile]);
        $this->assertSame(3, $status->exitCode, $status->describe());
        $this->assertSame("rapier: not running (no pid file at $this->pidFile)\n", $status->stderr);

        $again = Cli::run(['stop', '--pid-file', $this->pidFile]);
        $this->assertSame(1, $again->exitCode);
        $this->assertSame("rapier: no server is running with pid file $this->pidFile (not found)\n", $again->stderr);
    }
}
