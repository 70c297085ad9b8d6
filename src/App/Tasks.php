<?php

declare(strict_types=1);

namespace Rapier\App;

use Rapier\Exception;
use Rapier\Http\Server;

/**
 * Task workers for apps served by `rapier serve --task-workers N`. An app
 * does not see the Server, and closures cannot cross processes, so a task
 * is a named callable and its arguments:
 *
 *     $pdf = Rapier\App\Tasks::run([Invoices::class, 'render'], [42], timeout: 5.0);
 *
 * runs Invoices::render(42) in a task worker (where the app was loaded too)
 * and returns its result; only the calling coroutine waits.
 */
final class Tasks
{
    private static ?Server $server = null;

    /** Called by `rapier serve` in each worker: the server tasks go through. */
    public static function attach(Server $server): void
    {
        self::$server = $server;
    }

    /**
     * @param string|array{string|object, string} $callable a function or static method name, or [class, method]
     * @param list<mixed> $args serializable
     * @throws Exception outside a served request, without task workers, or when the task failed
     * @throws \Rapier\TimeoutException when $timeout seconds pass first
     */
    public static function run(string|array $callable, array $args = [], float $timeout = -1): mixed
    {
        if (self::$server === null) {
            throw new Exception('Cannot run a task: no server (tasks run from requests served by `rapier serve --task-workers N`)');
        }

        return self::$server->task([$callable, array_values($args)], $timeout);
    }

    /** The task handler, in a task worker: calls what run() named. */
    public static function handle(mixed $data, int $taskId): mixed
    {
        if (!is_array($data) || !array_is_list($data) || count($data) !== 2 || !is_array($data[1])) {
            throw new Exception('Cannot run task #' . $taskId . ': expected [callable, args] from Rapier\App\Tasks::run()');
        }
        [$callable, $args] = $data;
        if (!is_callable($callable)) {
            throw new Exception('Cannot run task #' . $taskId . ': ' . (is_string($callable) ? $callable : json_encode($callable))
                . ' is not callable in the task worker');
        }

        return $callable(...$args);
    }
}
