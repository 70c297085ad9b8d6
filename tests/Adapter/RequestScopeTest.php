<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use Closure;
use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;

/**
 * RequestScope against a real server whose `concurrency` is unlimited:
 * requests that wait inside the handler (a hooked usleep) must still see
 * their own globals, because the scope lets one request in at a time.
 */
final class RequestScopeTest extends TestCase
{
    private const SERVER = <<<'PHP'
        <?php
        require getenv('RAPIER_ROOT') . '/src/autoload.php';
        use Rapier\Http\{Server, Request, Response};
        $scope = new Rapier\Adapter\Internal\RequestScope();
        $scope->capture();
        $server = new Server('127.0.0.1', (int) getenv('RAPIER_PORT'), ['workers' => 0]);
        $server->on('workerStart', fn () => fwrite(STDERR, "ready\n"));
        $server->on('request', function (Request $request, Response $response) use ($scope) {
            $scope->run($request, $response, function () use ($response) {
                if (isset($_GET['exit'])) {
                    http_response_code((int) $_GET['exit']);
                    header('X-Exit: yes');
                    echo 'bye';
                    exit;
                }
                $mine = $_GET['n'];
                usleep(50000);
                $response->end($mine === $_GET['n'] ? "ok $mine" : "request $mine saw {$_GET['n']}");
            }, fn () => null);
        });
        $server->start();
        PHP;

    public function testConcurrentRequestsEachSeeTheirOwnGlobals(): void
    {
        $this->withServer(function (int $port): void {
            $this->assertSame(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5'], self::fetchAtOnce($port, 5));
        });
    }

    public function testExitAnswersWithTheStatusHeadersAndOutputPhpHas(): void
    {
        $this->withServer(function (int $port): void {
            $response = HttpClient::get($port, '/?exit=404');
            $this->assertSame(404, $response->status);
            $this->assertSame('yes', $response->header('X-Exit'));
            $this->assertSame('bye', $response->body);
        });
    }

    public function testExitWithAnInterimStatusIsA500ThatSaysWhy(): void
    {
        $this->withServer(function (int $port, $log): void {
            $response = HttpClient::get($port, '/?exit=103');
            $this->assertSame(500, $response->status);
            $this->assertNull($response->header('X-Exit'));
            $this->assertStringNotContainsString('bye', $response->body);
            $this->assertStringContainsString(
                'Rapier\Exception: The application set http_response_code(103) and called exit()',
                self::readUntil($log, 'called exit()'),
            );
            // The worker goes on.
            $this->assertSame(['ok 1'], self::fetchAtOnce($port, 1));
        });
    }

    /** @param Closure(int, resource): void $test given the port and the server's stderr */
    private function withServer(Closure $test): void
    {
        $script = tempnam(sys_get_temp_dir(), 'rapier-scope-');
        file_put_contents($script, self::SERVER);
        $port = Cli::freePort();
        $proc = proc_open(
            [PHP_BINARY, '-d', 'extension=' . Cli::extension(), $script],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            null,
            ['RAPIER_ROOT' => dirname(__DIR__, 2), 'RAPIER_PORT' => (string) $port] + getenv(),
        );
        try {
            $this->assertSame("ready\n", fgets($pipes[2]), 'the server did not start');
            $test($port, $pipes[2]);
        } finally {
            proc_terminate($proc, 15);
            proc_close($proc);
            unlink($script);
        }
    }

    /**
     * What $log gives until $needle shows, or 10 s have passed.
     *
     * @param resource $log
     */
    private static function readUntil($log, string $needle): string
    {
        stream_set_blocking($log, false);
        $seen = '';
        for ($deadline = microtime(true) + 10; !str_contains($seen, $needle) && microtime(true) < $deadline;) {
            $read = [$log];
            $write = $except = null;
            if (stream_select($read, $write, $except, 0, 100000) > 0) {
                $seen .= (string) fread($log, 65536);
            }
        }

        return $seen;
    }

    /** @return list<string> the bodies of GET /?n=1..$count, sent together */
    private static function fetchAtOnce(int $port, int $count): array
    {
        $multi = curl_multi_init();
        $handles = [];
        for ($n = 1; $n <= $count; $n++) {
            $handles[$n] = curl_init("http://127.0.0.1:$port/?n=$n");
            curl_setopt_array($handles[$n], [CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 30]);
            curl_multi_add_handle($multi, $handles[$n]);
        }
        do {
            $status = curl_multi_exec($multi, $running);
            if ($running > 0) {
                curl_multi_select($multi, 1.0);
            }
        } while ($running > 0 && $status === CURLM_OK);
        $bodies = [];
        foreach ($handles as $handle) {
            $bodies[] = (string) curl_multi_getcontent($handle);
            curl_multi_remove_handle($multi, $handle);
        }
        curl_multi_close($multi);

        return $bodies;
    }
}
