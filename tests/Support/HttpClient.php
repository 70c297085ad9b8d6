<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use RuntimeException;

/**
 * A minimal HTTP/1.1 client over a stream socket, for asserting exactly
 * what a server sent: one request per connection (Connection: close), the
 * raw head kept, repeated header lines kept, chunked bodies decoded.
 */
final class HttpClient
{
    private const TIMEOUT_SECONDS = 30;

    /** @param array<string, string> $headers */
    public static function request(int $port, string $method, string $target, array $headers = [], string $body = ''): HttpResponse
    {
        $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, self::TIMEOUT_SECONDS);
        if ($socket === false) {
            throw new RuntimeException("Cannot connect to 127.0.0.1:$port: $error");
        }
        stream_set_timeout($socket, self::TIMEOUT_SECONDS);
        $headers += ['Host' => "127.0.0.1:$port", 'Connection' => 'close'];
        if ($body !== '' || in_array($method, ['POST', 'PUT', 'PATCH'], true)) {
            $headers['Content-Length'] = (string) strlen($body);
        }
        $head = "$method $target HTTP/1.1\r\n";
        foreach ($headers as $name => $value) {
            $head .= "$name: $value\r\n";
        }
        fwrite($socket, "$head\r\n$body");
        $raw = (string) stream_get_contents($socket);
        $timedOut = stream_get_meta_data($socket)['timed_out'];
        fclose($socket);
        if ($timedOut) {
            throw new RuntimeException("No complete answer from 127.0.0.1:$port within " . self::TIMEOUT_SECONDS . " s\n$raw");
        }

        return HttpResponse::parse($raw, $method === 'HEAD');
    }

    /** @param array<string, string> $headers */
    public static function get(int $port, string $target, array $headers = []): HttpResponse
    {
        return self::request($port, 'GET', $target, $headers);
    }
}
