<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;

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
                $mine = $_GET['n'];
                usleep(50000);
                $response->end($mine === $_GET['n'] ? "ok $mine" : "request $mine saw {$_GET['n']}");
            }, fn () => null);
        });
        $server->start();
        PHP;

    public function testConcurrentRequestsEachSeeTheirOwnGlobals(): void
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
            $this->assertSame(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5'], self::fetchAtOnce($port, 5));
        } finally {
            proc_terminate($proc, 15);
            proc_close($proc);
            unlink($script);
        }
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
