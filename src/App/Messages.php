<?php

declare(strict_types=1);

namespace Rapier\App;

use Rapier\Exception;
use Rapier\Http\Server;

/**
 * Messages between the workers of an app served by `rapier serve`: what
 * one worker learns (a chat message, a cache entry to drop, a setting
 * changed), the others hear. An app does not see the Server, so messages
 * go by topic:
 *
 *     Rapier\App\Messages::listen('chat', fn (array $event, int $fromWorker) => $room->deliver($event));
 *     Rapier\App\Messages::broadcast('chat', ['name' => 'ann', 'text' => 'hello']);
 *
 * listen() runs where the app is loaded, so in every worker and task
 * worker; each message then runs the topic's listeners in a coroutine of
 * its own there. Server::sendMessage() in http-server.md says what is
 * guaranteed: in order from one worker to another, at most once.
 */
final class Messages
{
    private static ?Server $server = null;

    /** @var array<string, list<callable(mixed, int): mixed>> */
    private static array $listeners = [];

    /** Called by `rapier serve` in each worker, before the app is loaded. */
    public static function attach(Server $server): void
    {
        self::$server = $server;
    }

    /**
     * Calls $listener($data, $fromWorkerId) for every message on $topic that
     * reaches this worker ($fromWorkerId is -1 for a user process).
     */
    public static function listen(string $topic, callable $listener): void
    {
        self::$listeners[$topic][] = $listener;
    }

    /**
     * Sends $data (serializable) on $topic to worker $workerId: 0 up to
     * --workers - 1, then the task workers; this one included.
     *
     * @throws Exception outside `rapier serve`, or when the message cannot be sent
     * @throws \ValueError for a worker id out of range
     */
    public static function send(string $topic, mixed $data, int $workerId): void
    {
        self::server()->sendMessage([$topic, $data], $workerId);
    }

    /**
     * Sends $data on $topic to every worker and task worker, this one
     * included; returns how many.
     *
     * @throws Exception outside `rapier serve`, or when the message cannot be sent
     */
    public static function broadcast(string $topic, mixed $data): int
    {
        return self::server()->broadcastMessage([$topic, $data]);
    }

    /** The message handler, in every worker: runs the topic's listeners, if any here. */
    public static function handle(mixed $message, int $fromWorkerId): void
    {
        if (!is_array($message) || !array_is_list($message) || count($message) !== 2 || !is_string($message[0])) {
            throw new Exception('Cannot handle a message from worker ' . $fromWorkerId
                . ': expected [topic, data] from Rapier\App\Messages (use it, not Server::sendMessage(), in an app)');
        }
        foreach (self::$listeners[$message[0]] ?? [] as $listener) {
            $listener($message[1], $fromWorkerId);
        }
    }

    private static function server(): Server
    {
        return self::$server ?? throw new Exception(
            'Cannot send a message: no server (messages go between the workers of `rapier serve`)');
    }
}
