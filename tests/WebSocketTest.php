<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\TlsCertificate;
use RuntimeException;

/**
 * Rapier's WebSocket server against a client it does not share a line of
 * code with: python3-websockets (tests/Support/websocket_client.py), the
 * apps served by a real `rapier serve` (master, one worker or two). The chat is
 * examples/websocket/chat.php as shipped; the stop goes through the
 * master, as `rapier stop` does.
 */
final class WebSocketTest extends TestCase
{
    private const PYTHON = '/usr/bin/python3';
    /** Echoes every message back, text as text and binary as binary, under the subprotocol v2. */
    private const ECHO_APP = <<<'PHP'
        <?php
        return function (Rapier\Http\Request $request, Rapier\Http\Response $response): void {
            $ws = $response->upgrade('v2');
            while (($message = $ws->recv()) !== null) {
                $ws->send($message->data, $message->binary);
            }
        };
        PHP;

    private string $dir;
    private int $port;
    private ?ServedApp $rapier = null;

    protected function setUp(): void
    {
        $probe = @shell_exec(self::PYTHON . ' -c "import websockets" 2>&1 && echo ok');
        if (trim((string) $probe) !== 'ok') {
            $this->markTestSkipped('python3-websockets is not installed (scripts/install-deps.sh installs it)');
        }
        $this->dir = Cli::tempDirectory();
    }

    protected function tearDown(): void
    {
        $this->rapier?->stop();
        $this->rapier = null;
        Cli::removeDirectory($this->dir);
    }

    public function testTheChatExampleBroadcastsToEveryMember(): void
    {
        $this->serve((string) file_get_contents(dirname(__DIR__) . '/examples/websocket/chat.php'));

        $seen = $this->client('chat', '/chat');

        $this->assertSame(['event' => 'joined', 'name' => 'ann', 'worker' => 0], $seen['ann_joined']);
        $this->assertSame(['event' => 'joined', 'name' => 'bob', 'worker' => 0], $seen['ann_sees_bob']);
        $this->assertSame($seen['ann_sees_bob'], $seen['bob_joined']);
        $expected = ['event' => 'message', 'name' => 'ann', 'text' => 'hello from ann', 'worker' => 0];
        $this->assertSame($expected, $seen['ann_gets']);
        $this->assertSame($expected, $seen['bob_gets']);
        $this->assertTrue($seen['ping_answered']);
        $this->assertTrue($seen['burst_in_order'], 'the 200 messages bob sent reached ann in order');
        $this->assertSame([1000, ''], $seen['bob_close'], 'the server answered bob\'s close with its code');
        $this->assertSame(['event' => 'left', 'name' => 'bob', 'worker' => 0], $seen['ann_sees_bob_leave']);
        $this->assertSame([1000, ''], $seen['ann_close']);
        $this->assertSame(0, $this->rapier->stop());
    }

    public function testTheChatExampleSpansWorkers(): void
    {
        // Members join until two are on different workers (the kernel spreads connections over both).
        $this->serve((string) file_get_contents(dirname(__DIR__) . '/examples/websocket/chat.php'), workers: 2);

        $seen = $this->client('chat_workers', '/chat');

        $this->assertSame([0, 1], $seen['workers'], 'members on both workers');
        $this->assertTrue($seen['everyone_heard_everyone'], "each of the {$seen['members']} members heard every hello");
        $this->assertSame(0, $this->rapier->stop());
    }

    public function testMessagesOfEverySizeAndASubprotocol(): void
    {
        $this->serve(self::ECHO_APP);

        $this->assertEchoed($this->client('echo', '/'));
    }

    public function testMessagesOfEverySizeCompressed(): void
    {
        // python3-websockets offers permessage-deflate by default; the server agrees with the option set.
        file_put_contents("$this->dir/rapier.php", "<?php return ['server' => ['websocket_compression' => true]];");
        $this->serve(self::ECHO_APP, ['--config', "$this->dir/rapier.php"]);

        $this->assertEchoed($this->client('echo', '/'), compressed: true);
    }

    public function testMessagesOfEverySizeOverTls(): void
    {
        $cert = TlsCertificate::create($this->dir);
        $this->serve(self::ECHO_APP, ['--tls-cert', $cert->certFile, '--tls-key', $cert->keyFile]);

        $this->assertEchoed($this->client('echo', '/', $cert->certFile));
    }

    public function testAStopClosesOpenWebSocketsWithGoingAway(): void
    {
        $this->serve((string) file_get_contents(dirname(__DIR__) . '/examples/websocket/chat.php'));
        $out = tempnam(sys_get_temp_dir(), 'rapier-ws-');
        $proc = proc_open([self::PYTHON, dirname(__FILE__) . '/Support/websocket_client.py', 'wait',
            "ws://127.0.0.1:$this->port/chat"], [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'],
            2 => ['file', $out, 'a']], $pipes);
        try {
            $this->waitFor(static fn (): bool => str_contains((string) file_get_contents($out), 'connected'), $out);

            // SIGTERM to the master, as `rapier stop` sends: the worker drains, its WebSocket gets 1001.
            $this->assertSame(0, $this->rapier->stop(), $this->rapier->output());

            $this->waitFor(static fn (): bool => !proc_get_status($proc)['running'], $out);
            $lines = explode("\n", trim((string) file_get_contents($out)));
            $seen = json_decode((string) end($lines), true);
            $this->assertSame([1001, 'the server is stopping'], $seen['close'] ?? null, (string) file_get_contents($out));
        } finally {
            proc_terminate($proc, 9);
            proc_close($proc);
            @unlink($out);
        }
    }

    /**
     * @param array<string, mixed> $seen what websocket_client.py's echo scenario saw of ECHO_APP
     * @param bool $compressed whether permessage-deflate was agreed (the client always offers it)
     */
    private function assertEchoed(array $seen, bool $compressed = false): void
    {
        $this->assertSame($compressed ? ['PerMessageDeflate'] : [], $seen['extensions']);
        $this->assertSame('v2', $seen['subprotocol']);
        $sizes = ['0', '1', '125', '126', '65535', '65536', '1048576'];
        $this->assertSame(array_fill_keys($sizes, true), $seen['binary_echoed']);
        $this->assertTrue($seen['text_echoed']);
        $this->assertTrue($seen['ping_answered']);
        $this->assertSame([1000, ''], $seen['close']);
    }

    /** @param list<string> $options more `rapier serve` options */
    private function serve(string $app, array $options = [], int $workers = 1): void
    {
        file_put_contents("$this->dir/app.php", $app);
        $this->port = Cli::freePort();
        $this->rapier = Cli::serve(["$this->dir/app.php", '--port', (string) $this->port, '--workers', (string) $workers,
            ...$options]);
        $this->rapier->waitForWorkers("$this->dir/.rapier.pid", $workers);
    }

    /**
     * @param string|null $cafile wss://, verifying the server against this certificate
     * @return array<string, mixed> what the scenario's clients saw
     */
    private function client(string $scenario, string $path, ?string $cafile = null): array
    {
        $url = ($cafile === null ? 'ws' : 'wss') . "://127.0.0.1:$this->port$path";
        $command = [self::PYTHON, __DIR__ . '/Support/websocket_client.py', $scenario, $url];
        $env = $cafile === null ? null : ['WS_TEST_CAFILE' => $cafile] + getenv();
        $proc = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes,
            null, $env);
        if ($proc === false) {
            throw new RuntimeException('Cannot start the Python client');
        }
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        $code = proc_close($proc);
        $this->assertSame(0, $code, "the client failed:\n$stderr$stdout\n" . $this->rapier?->output());

        return json_decode($stdout, true, 512, JSON_THROW_ON_ERROR);
    }

    private function waitFor(callable $condition, string $outFile): void
    {
        $deadline = microtime(true) + 30;
        while (!$condition()) {
            if (microtime(true) > $deadline) {
                $this->fail("timed out; client output:\n" . file_get_contents($outFile) . "\n" . $this->rapier?->output());
            }
            usleep(20000);
        }
    }
}
