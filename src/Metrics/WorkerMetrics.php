<?php

declare(strict_types=1);

namespace Rapier\Metrics;

use Rapier\Adapter\Adapter;
use Rapier\App\Tables;
use Rapier\Cli\CliException;
use Rapier\Cli\StatusSocket;
use Rapier\Coroutine;
use Rapier\ExitException;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;
use Rapier\Table;
use Rapier\Timer;
use Throwable;

use function Rapier\trap_exit;

/**
 * `rapier serve --metrics PATH` inside one worker: times and counts each
 * request on its way to the app, measures event-loop lag with a 100 ms
 * tick, publishes a snapshot to the run directory once a second and at
 * stop, and answers GET PATH itself (the app never sees it, and it is not
 * counted) with every worker's metrics summed (Exposition).
 */
final class WorkerMetrics
{
    /** Lag is how late this tick fires; 100 ms resolves the lag that hurts requests and costs nothing. */
    private const TICK_SECONDS = 0.1;
    /** A snapshot every 10 ticks: a scrape sees other workers' counts at most about a second old. */
    private const TICKS_PER_SNAPSHOT = 10;

    private Registry $registry;
    private RouteLabel $routes;
    private ?Server $server = null;
    private int $workerId = 0;
    private ?int $timer = null;
    private int $ticks = 0;
    private float $lastTick = 0.0;
    private float $lagMax = 0.0;
    private float $lagReported = 0.0;
    private float $started = 0.0;
    /** Scrapes being answered by this worker now: handlers the server counts in flight, we do not. */
    private int $scrapes = 0;

    public function __construct(
        public readonly string $path,
        private readonly Snapshots $snapshots,
        private readonly ?StatusSocket $status,
    ) {
        $this->registry = new Registry();
        $this->routes = new RouteLabel();
    }

    /** In workerStart. */
    public function start(Server $server, int $workerId): void
    {
        $this->server = $server;
        $this->workerId = $workerId;
        $this->started = microtime(true);
        $this->lastTick = hrtime(true) / 1e9;
        $this->timer = Timer::tick(self::TICK_SECONDS, $this->tick(...));
        $this->publish();
    }

    /** In workerStop: the last snapshot, which the next scrape folds into the retired counters. */
    public function stop(): void
    {
        if ($this->server === null) {
            return;
        }
        if ($this->timer !== null) {
            Timer::clear($this->timer);
            $this->timer = null;
        }
        $this->publish();
    }

    /** The request handler: the metrics page, or the app timed and counted. */
    public function handle(Request $request, Response $response, Adapter $adapter): void
    {
        if ($request->path === $this->path) {
            $this->answer($request, $response);
            return;
        }
        $begin = hrtime(true);
        $status = null;
        try {
            // Trapped here too, so that a request ended by exit() is counted.
            trap_exit($adapter->handle(...), $request, $response);
        } catch (ExitException) {
            // The request ended as if the handler had returned (docs/http-server.md).
        } catch (Throwable $e) {
            // The server answers 500 for a handler that throws (before headers were sent).
            $status = '500';
            throw $e;
        } finally {
            $seconds = (hrtime(true) - $begin) / 1e9;
            $route = $this->routes->label($adapter instanceof RouteAware ? $adapter->lastRoute() : null, $request->path);
            $this->registry->observe($request->method, $route, $status ?? self::status($response), $seconds);
        }
    }

    /** The page as this worker would answer it now. */
    public function render(): string
    {
        $pid = getmypid();
        $this->publish();
        $document = $this->statusDocument();
        $live = $document === null ? null : array_flip(array_map('intval', array_column((array) $document['workers'], 'pid')));
        [$snapshots, $retired] = $this->snapshots->collect(static fn (int $p): bool => $p === $pid
            || ($live !== null ? isset($live[$p]) : self::alive($p)));
        $snapshots[$pid] = $this->snapshot();

        $tables = array_map(static fn (Table $t): array => ['rows' => count($t), 'size' => $t->size()], Tables::all());

        return Exposition::render($snapshots, $retired, $document, $tables);
    }

    private function answer(Request $request, Response $response): void
    {
        if ($request->method !== 'GET' && $request->method !== 'HEAD') {
            $response->status(405)->header('Allow', 'GET, HEAD')->end("Method Not Allowed\n");
            return;
        }
        $this->scrapes++;
        try {
            $text = $this->render();
        } finally {
            $this->scrapes--;
        }
        $response->header('Content-Type', TextFormat::CONTENT_TYPE)->end($text);
    }

    private function tick(): void
    {
        $now = hrtime(true) / 1e9;
        $this->lagMax = max($this->lagMax, $now - $this->lastTick - self::TICK_SECONDS);
        $this->lastTick = $now;
        if (++$this->ticks % self::TICKS_PER_SNAPSHOT === 0) {
            $this->lagReported = $this->lagMax;
            $this->lagMax = 0.0;
            $this->publish();
        }
    }

    private function publish(): void
    {
        $this->snapshots->write(getmypid(), $this->snapshot());
    }

    /**
     * This worker's numbers. In flight and connections come from here, not
     * from the status socket: the server updates its status entry when a
     * request ends, so a request still running is not in flight there.
     *
     * @return array<string, mixed>
     */
    private function snapshot(): array
    {
        $stats = $this->server?->stats() ?? [];
        $this->registry->setServerCounters($stats);

        return [
            'pid' => getmypid(),
            'worker' => $this->workerId,
            'started' => $this->started,
            'time' => microtime(true),
            'lag' => max(0.0, $this->lagReported),
            'coroutines' => Coroutine::count(),
            'in_flight' => max(0, ($stats['handling'] ?? 0) - $this->scrapes),
            'connections' => $stats['connections'] ?? 0,
            'websockets' => $stats['websockets'] ?? 0,
            'concurrency_limit' => $stats['concurrency_limit'] ?? 0,
            'static_compress_cached_bytes' => $stats['static_compress_cached_bytes'] ?? 0,
            'memory' => memory_get_usage(),
            'rss' => self::rss(),
            'registry' => $this->registry->toArray(),
        ];
    }

    /** @return array<string, mixed>|null */
    private function statusDocument(): ?array
    {
        try {
            return $this->status?->fetch();
        } catch (CliException) {
            return null;
        }
    }

    /** The status the response was given. */
    private static function status(Response $response): string
    {
        return (string) $response->statusCode();
    }

    private static function alive(int $pid): bool
    {
        return function_exists('posix_kill') ? posix_kill($pid, 0) || posix_get_last_error() === 1 : is_dir("/proc/$pid");
    }

    private static function rss(): int
    {
        $statm = @file_get_contents('/proc/self/statm');

        return $statm === false ? 0 : (int) (explode(' ', $statm)[1] ?? 0) * 4096;
    }
}
