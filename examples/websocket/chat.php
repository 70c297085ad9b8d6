<?php

declare(strict_types=1);

/*
 * A chat room over WebSocket, as an app for `rapier serve`:
 *
 *     bin/rapier serve examples/websocket/chat.php --workers 4
 *
 * then connect to ws://127.0.0.1:8080/chat?name=ann (a browser's console:
 * `s = new WebSocket("ws://127.0.0.1:8080/chat?name=ann"); s.onmessage =
 * e => console.log(e.data); s.send("hello")`). Every member gets every
 * event as JSON: {"event":"joined","name":"ann","worker":0},
 * {"event":"message","name":"ann","text":"hello","worker":0},
 * {"event":"left",...}; "worker" is the worker the member is connected to.
 *
 * Each connection's handler runs for as long as its member stays, in a
 * coroutine of its own. A worker keeps its own members, and every event
 * goes to every worker (Rapier\App\Messages), which hands it to its members:
 * so members connected to different workers talk as if in one room.
 */

use Rapier\App\Messages;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\WebSocket;

final class ChatRoom
{
    /** @var SplObjectStorage<WebSocket, string> this worker's members, each WebSocket and name */
    private SplObjectStorage $members;

    public function __construct()
    {
        $this->members = new SplObjectStorage();
    }

    public function join(WebSocket $ws, string $name): void
    {
        $this->members[$ws] = $name;
        Messages::broadcast('chat', ['event' => 'joined', 'name' => $name]);
    }

    public function leave(WebSocket $ws): void
    {
        $name = $this->members[$ws];
        $this->members->detach($ws);
        Messages::broadcast('chat', ['event' => 'left', 'name' => $name]);
    }

    public function say(WebSocket $ws, string $text): void
    {
        Messages::broadcast('chat', ['event' => 'message', 'name' => $this->members[$ws], 'text' => $text]);
    }

    /**
     * Every event, from this worker or another, reaches every worker here;
     * those of one worker in the order it sent them. Each member's copy is
     * sent by a coroutine of its own: a member whose connection is slow (its
     * socket full) delays only its own messages. Coroutines writing to one
     * WebSocket take turns in the order they started, so each member gets
     * the events in order.
     */
    public function deliver(array $event, int $fromWorker): void
    {
        $event['worker'] = $fromWorker;
        $json = json_encode($event, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE);
        foreach ($this->members as $member) {
            Rapier\go(static fn () => $member->send($json));
        }
    }
}

$room = new ChatRoom();
Messages::listen('chat', $room->deliver(...));

return static function (Request $request, Response $response) use ($room): void {
    if ($request->path !== '/chat') {
        $response->status(404)->end("Connect a WebSocket to /chat?name=you\n");
        return;
    }
    // A request that is not a WebSocket handshake has been answered (426) and gets null.
    $ws = $response->upgrade();
    if ($ws === null) {
        return;
    }
    $name = preg_replace('/[^\w-]/u', '', (string) ($request->query['name'] ?? '')) ?: 'guest';
    $room->join($ws, mb_substr($name, 0, 32));
    try {
        while (($message = $ws->recv()) !== null) {
            if (!$message->binary && $message->data !== '') {
                $room->say($ws, $message->data);
            }
        }
    } finally {
        $room->leave($ws);
    }
};
