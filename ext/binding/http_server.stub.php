<?php

/** @generate-class-entries */

namespace Rapier\Http {
    /**
     * An HTTP/1.1 and HTTP/2 server: a master process supervising worker
     * processes, each with its own event loop and SO_REUSEPORT listener.
     * Every request runs in its own coroutine.
     */
    final class Server
    {
        /**
         * Options (an array of name => value) are listed in docs/http-server.md.
         *
         * @throws \ValueError for an unknown option or a value out of range
         */
        public function __construct(string $host = "127.0.0.1", int $port = 8080, array $options = []) {}

        /**
         * Sets the handler of an event: "request" fn(Request, Response), "workerStart" fn(Server, int $workerId),
         * "workerStopping" fn(Server, int $workerId) (as a graceful stop begins, beside the handlers still running:
         * tell long-lived ones to finish), "workerStop" fn(Server, int $workerId) (once drained, and workerStopping
         * has returned), "task" fn(mixed $data, int $taskId): mixed,
         * "message" fn(mixed $message, int $fromWorkerId) (sendMessage(); -1: from a user process).
         *
         * @throws \ValueError for an unknown event
         * @throws \Rapier\Exception once the server has started
         */
        public function on(string $event, callable $handler): static {}

        /**
         * Runs fn(Server $server, int $processId) in a process of its own beside the workers, as the main coroutine of
         * its own scheduler: a queue consumer, a scheduler, a file watcher. The master starts it with the workers,
         * starts it again (with the crash back-off) whenever it ends, and stops it with SIGTERM with the server; a
         * reload leaves it running. Returns the process id, 0 for the first added.
         *
         * @throws \Rapier\Exception once the server has started, or when the server has no master (workers 0)
         */
        public function addProcess(callable $fn): int {}

        /**
         * Binds, forks the workers and serves until stopped (SIGTERM/SIGINT).
         *
         * @throws \Rapier\Exception when the address cannot be bound, or no "request" handler is set
         */
        public function start(): void {}

        /**
         * Sends $data to a task worker and suspends the calling coroutine until its result comes back.
         *
         * @throws \Rapier\Exception outside a request coroutine, or without task workers
         * @throws \Rapier\TimeoutException when $timeout passes first
         */
        public function task(mixed $data, float $timeout = -1): mixed {}

        /**
         * Sends $message (serialized) to worker $workerId (0..workers-1, then the task workers; this one included),
         * whose "message" handler runs with it in a coroutine of its own. Returns once the message is queued: it
         * waits only while more than 1 MiB is on its way to that worker. Messages from one process to one worker
         * arrive in the order sent; one on its way to a worker that dies is lost.
         *
         * @throws \ValueError for a worker id out of range
         * @throws \Rapier\Exception without a "message" handler, outside the running server's processes, or for a
         *         message over message_max_payload
         */
        public function sendMessage(mixed $message, int $workerId): void {}

        /**
         * Sends $message to every worker and task worker, this one included, as sendMessage() does to each.
         * Returns how many it was sent to.
         *
         * @throws \Rapier\Exception as sendMessage()
         */
        public function broadcastMessage(mixed $message): int {}

        /**
         * Stops the whole server gracefully, as SIGTERM to its master does: from a request handler, workerStart,
         * a task or a user process of a running server. Returns at once; the stop runs on its own.
         *
         * @throws \Rapier\Exception when the server is not running (before start(), after it returned), or in a
         *         process forked from one of its processes (pcntl_fork())
         */
        public function shutdown(): void {}

        /**
         * Replaces the workers and task workers with new ones, as SIGHUP to the master does (with $onlyTaskWorkers,
         * the task workers alone, as SIGUSR2 does): zero-downtime, new code loaded. Returns at once.
         *
         * @throws \Rapier\Exception when the server is not running, runs in one process ("workers" 0), or the
         *         caller is a process forked from one of its processes (pcntl_fork())
         */
        public function reload(bool $onlyTaskWorkers = false): void {}

        /**
         * Counters of this worker (docs/http-server.md lists what each means).
         *
         * @return array{worker_id: int, requests: int, accepted: int, connections: int, handling: int, shed: int,
         *     abandoned: int, slow: int, tls_handshake_failures: int, websockets: int, concurrency_limit: int,
         *     coroutines: int, memory: int, messages_sent: int, messages_received: int}
         */
        public function stats(): array {}

        /** The worker id (0..workers-1) in a worker, -1 in the master or before start(). */
        public function workerId(): int {}

        /** Body of a worker's main coroutine. */
        private function workerMain(): void {}

        /** Body of a task's coroutine in a task worker. */
        private function runTask(string $payload, int $taskId): mixed {}

        /** Body of a message's coroutine. */
        private function runMessage(string $payload, int $fromWorkerId): void {}
    }
}
