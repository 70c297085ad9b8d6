<?php

declare(strict_types=1);

namespace Rapier\Tests;

use GuzzleHttp\Client;
use GuzzleHttp\Exception\ClientException;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Promise\Utils;
use PHPUnit\Framework\TestCase;
use Rapier\Runtime;
use Rapier\Tests\Support\CoroutineHttpPeer;
use Rapier\WaitGroup;

use function Rapier\go;
use function Rapier\run;

/**
 * Guzzle (Debian's php-guzzlehttp-guzzle, the client behind Laravel's Http
 * facade) inside coroutines: its curl_exec() and curl_multi_select() calls
 * yield through Rapier\HOOK_CURL. The server answering is run by coroutines
 * of this same process and holds every answer until its clients overlap,
 * so a blocking client could never be answered.
 */
final class CurlConcurrencyTest extends TestCase
{
    protected function setUp(): void
    {
        if (!class_exists(Client::class)) {
            require_once '/usr/share/php/GuzzleHttp/autoload.php';
        }
    }

    public function testSynchronousRequestsInCoroutinesOverlap(): void
    {
        $bodies = run(static function (): array {
            $peer = new CoroutineHttpPeer(quorum: 10);
            $bodies = [];
            $wg = new WaitGroup();
            for ($i = 0; $i < 10; $i++) {
                $wg->add();
                go(static function () use ($peer, $i, $wg, &$bodies): void {
                    try {
                        $client = new Client(['timeout' => 10]);
                        $bodies[$i] = (string) $client->get($peer->url("/sync-$i"))->getBody();
                    } finally {
                        $wg->done();
                    }
                });
            }
            $wg->wait();
            $peer->close();
            ksort($bodies);

            return $bodies;
        });

        $this->assertSame(array_map(static fn (int $i): string => "/sync-$i saw 10", range(0, 9)), $bodies);
    }

    public function testAsynchronousPoolWaitsInItsCoroutineOnly(): void
    {
        $bodies = run(static function (): array {
            $peer = new CoroutineHttpPeer(quorum: 5);
            $client = new Client(['timeout' => 10]);
            $promises = [];
            for ($i = 0; $i < 5; $i++) {
                $promises[$i] = $client->getAsync($peer->url("/async-$i"));
            }
            // Guzzle's wait loop (curl_multi_select) must let the peer's coroutines answer.
            $bodies = array_map(static fn ($response): string => (string) $response->getBody(),
                Utils::all($promises)->wait());
            $peer->close();

            return $bodies;
        });

        $this->assertSame(array_map(static fn (int $i): string => "/async-$i saw 5", range(0, 4)), $bodies);
    }

    public function testErrorsStayInTheirCoroutine(): void
    {
        $outcomes = run(static function (): array {
            $peer = new CoroutineHttpPeer();
            $closed = stream_socket_server('tcp://127.0.0.1:0');
            $refused = 'http://' . stream_socket_get_name($closed, false) . '/';
            fclose($closed);
            $urls = [$peer->url('/status/404'), $refused, $peer->url('/fine')];
            $outcomes = [];
            $wg = new WaitGroup();
            foreach ($urls as $i => $url) {
                $wg->add();
                go(static function () use ($url, $i, $wg, &$outcomes): void {
                    try {
                        $outcomes[$i] = (string) (new Client(['timeout' => 10]))->get($url)->getBody();
                    } catch (ClientException $e) {
                        $outcomes[$i] = 'client error ' . $e->getResponse()->getStatusCode();
                    } catch (ConnectException) {
                        $outcomes[$i] = 'connect error';
                    } finally {
                        $wg->done();
                    }
                });
            }
            $wg->wait();
            $peer->close();
            ksort($outcomes);

            return $outcomes;
        });

        $this->assertSame(['client error 404', 'connect error', '/fine saw 1'], $outcomes);
    }

    public function testRequestBlocksTheProcessWithTheCurlHookOff(): void
    {
        $saved = Runtime::getHooks();
        try {
            $outcome = run(static function (): string {
                Runtime::enableHooks(Runtime::getHooks() & ~\Rapier\HOOK_CURL);
                $peer = new CoroutineHttpPeer();
                try {
                    // The peer's coroutines cannot run while libcurl blocks the process.
                    (new Client(['timeout' => 0.3]))->get($peer->url('/blocked'));

                    return 'answered';
                } catch (ConnectException $e) {
                    return str_contains($e->getMessage(), 'timed out') ? 'timed out' : $e->getMessage();
                } finally {
                    $peer->close();
                }
            });
        } finally {
            Runtime::enableHooks($saved);
        }

        $this->assertSame('timed out', $outcome);
    }
}
