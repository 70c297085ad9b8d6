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
            $bodies = self::eachInACoroutine(range(0, 9), static fn (int $i): string =>
                (string) (new Client(['timeout' => 10]))->get($peer->url("/sync-$i"))->getBody());
            $peer->close();

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
            $outcomes = self::eachInACoroutine($urls, static function (string $url): string {
                try {
                    return (string) (new Client(['timeout' => 10]))->get($url)->getBody();
                } catch (ClientException $e) {
                    return 'client error ' . $e->getResponse()->getStatusCode();
                } catch (ConnectException) {
                    return 'connect error';
                }
            });
            $peer->close();

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

    /**
     * Inside a run: $fn($input) for each input in a coroutine of its own, all
     * at once; their results once every one has ended, by the inputs' keys.
     * What a coroutine throws is rethrown here, after the others ended.
     *
     * @param array<int, mixed> $inputs
     * @return array<int, mixed>
     */
    private static function eachInACoroutine(array $inputs, callable $fn): array
    {
        $results = [];
        $errors = [];
        $wg = new WaitGroup();
        foreach ($inputs as $key => $input) {
            $wg->add();
            go(static function () use ($fn, $key, $input, $wg, &$results, &$errors): void {
                try {
                    $results[$key] = $fn($input);
                } catch (\Throwable $e) {
                    $errors[] = $e;
                } finally {
                    $wg->done();
                }
            });
        }
        $wg->wait();
        if ($errors !== []) {
            throw $errors[0];
        }
        ksort($results);

        return $results;
    }
}
