<?php

/*
 * Concurrent HTTP requests with PHP's own file_get_contents(), against a
 * small server running in the same process. With the runtime hooks on (the
 * default inside Rapier\run()), PHP stream sockets wait in the event loop
 * instead of blocking: the server's coroutines answer after 300 ms each, and
 * five fetches still finish in about 300 ms together.
 *
 *     php -d extension=ext/modules/rapier.so examples/http_fetch.php
 */

declare(strict_types=1);

use Rapier\Coroutine;
use Rapier\WaitGroup;

use function Rapier\go;
use function Rapier\run;

const REQUESTS = 5;

function serve_one($conn): void
{
    $request = '';
    while (!str_contains($request, "\r\n\r\n") && ($chunk = fread($conn, 8192)) !== false && $chunk !== '') {
        $request .= $chunk;
    }
    [$method, $path] = explode(' ', $request, 3);
    // A slow backend: every answer takes 300 ms.
    Coroutine::sleep(0.3);
    $body = json_encode(['method' => $method, 'path' => $path, 'served_by' => Coroutine::id()]);
    fwrite($conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        . 'Content-Length: ' . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
    fclose($conn);
}

run(static function (): void {
    $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
    if ($server === false) {
        throw new RuntimeException("Cannot listen: $errstr");
    }
    $address = stream_socket_get_name($server, false);
    echo "server listening on $address\n";

    go(static function () use ($server): void {
        for ($i = 0; $i < REQUESTS; $i++) {
            $conn = stream_socket_accept($server, 5);
            go(serve_one(...), $conn);
        }
        fclose($server);
    });

    $start = hrtime(true);
    $fetching = new WaitGroup();
    $fetching->add(REQUESTS);
    for ($i = 1; $i <= REQUESTS; $i++) {
        go(static function () use ($i, $address, $start, $fetching): void {
            $body = file_get_contents("http://$address/item/$i");
            printf("%4.0f ms  GET /item/%d -> %s\n", (hrtime(true) - $start) / 1e6, $i, $body);
            $fetching->done();
        });
    }
    $fetching->wait();
    printf("%d requests of 300 ms each took %.0f ms together\n", REQUESTS, (hrtime(true) - $start) / 1e6);
});
