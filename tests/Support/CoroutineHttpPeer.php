<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use function Rapier\go;

/**
 * A minimal HTTP/1.1 server run by coroutines of the test's own process,
 * inside Rapier\run(): a client that blocked the process could never be
 * answered by it. Each answer is held until $quorum requests are in flight
 * at once (or $patience seconds have passed), and its body says how many
 * the peer saw at most, so a test learns whether its clients overlapped
 * from the answers alone. `/status/NNN` answers with that status.
 */
final class CoroutineHttpPeer
{
    private int $inFlight = 0;
    private int $peak = 0;

    /** @var resource */
    private $server;

    public function __construct(private readonly int $quorum = 1, private readonly float $patience = 5.0)
    {
        $this->server = stream_socket_server('tcp://127.0.0.1:0');
        go(function (): void {
            while (($conn = @stream_socket_accept($this->server, 30)) !== false) {
                go(fn () => $this->answer($conn));
            }
        });
    }

    public function url(string $path = '/'): string
    {
        return 'http://' . stream_socket_get_name($this->server, false) . $path;
    }

    /** Stops accepting; the accepting coroutine ends. */
    public function close(): void
    {
        stream_socket_shutdown($this->server, STREAM_SHUT_RDWR);
    }

    /** @param resource $conn */
    private function answer($conn): void
    {
        $head = '';
        while (!str_contains($head, "\r\n\r\n") && ($chunk = fread($conn, 8192)) !== false && $chunk !== '') {
            $head .= $chunk;
        }
        $path = explode(' ', $head)[1] ?? '?';
        $this->peak = max($this->peak, ++$this->inFlight);
        for ($waited = 0.0; $this->peak < $this->quorum && $waited < $this->patience; $waited += 0.001) {
            usleep(1000);
        }
        $this->inFlight--;
        $status = preg_match('~^/status/(\d{3})$~', $path, $m) ? (int) $m[1] : 200;
        $body = "$path saw $this->peak";
        fwrite($conn, "HTTP/1.1 $status X\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
        fclose($conn);
    }
}
