<?php

/*
 * Rapier\parallel(): a page that needs three slow backends waits for the
 * slowest of them, not for their sum. The backends here are a small HTTP
 * server in the same process (each path answers after its own delay), read
 * with PHP's own file_get_contents(), which waits in the event loop inside
 * a coroutine. Then the same with a limit (two at a time), a failing call
 * (the others are canceled at once), and a timeout.
 *
 *     php -d extension=ext/modules/rapier.so examples/parallel_requests.php
 */

declare(strict_types=1);

use Rapier\Coroutine;
use Rapier\TimeoutException;

use function Rapier\go;
use function Rapier\parallel;
use function Rapier\run;

/** Answers one request after the delay its path asks for (/user?ms=300); /broken answers 500. */
function serve_one($conn): void
{
    $request = '';
    while (!str_contains($request, "\r\n\r\n") && ($chunk = fread($conn, 8192)) !== false && $chunk !== '') {
        $request .= $chunk;
    }
    $target = explode(' ', $request, 3)[1] ?? '/';
    parse_str((string) parse_url($target, PHP_URL_QUERY), $query);
    try {
        Coroutine::sleep(((int) ($query['ms'] ?? 0)) / 1000);
        $path = (string) parse_url($target, PHP_URL_PATH);
        $status = $path === '/broken' ? '500 Internal Server Error' : '200 OK';
        $body = json_encode(['path' => $path]);
        fwrite($conn, "HTTP/1.1 $status\r\nContent-Type: application/json\r\n"
            . 'Content-Length: ' . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
    } catch (Rapier\CanceledException) {
        // The end of the example: answers still due are not sent.
    } finally {
        fclose($conn);
    }
}

/** GET $path from the backend; throws on an error status. */
function fetch(string $address, string $path): array
{
    $body = @file_get_contents("http://$address$path");
    if ($body === false) {
        throw new RuntimeException("GET $path failed: " . ($http_response_header[0] ?? 'no answer'));
    }

    return json_decode($body, true, flags: JSON_THROW_ON_ERROR);
}

run(static function (): void {
    $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
    if ($server === false) {
        throw new RuntimeException("Cannot listen: $errstr");
    }
    $address = stream_socket_get_name($server, false);
    go(static function () use ($server): void {
        try {
            // Canceled at the end (PHP adds its "Accept failed" warning to the exception).
            while ($conn = @stream_socket_accept($server, -1)) {
                go(serve_one(...), $conn);
            }
        } catch (Rapier\CanceledException) {
            fclose($server);
        }
    });
    $start = hrtime(true);
    $elapsed = static function () use (&$start): string {
        return sprintf('%4.0f ms', (hrtime(true) - $start) / 1e6);
    };

    // Three backends of 300, 200 and 100 ms: about 300 ms in all, not 600.
    $page = parallel([
        'user' => fn () => fetch($address, '/user?ms=300'),
        'cart' => fn () => fetch($address, '/cart?ms=200'),
        'price' => fn () => fetch($address, '/price?ms=100'),
    ]);
    echo $elapsed(), '  page: ', implode(', ', array_map(fn (array $r): string => $r['path'], $page)), "\n";

    // Six calls of 100 ms, two at a time: about 300 ms.
    $start = hrtime(true);
    $jobs = [];
    foreach (range(1, 6) as $n) {
        $jobs["item $n"] = fn () => fetch($address, "/item/$n?ms=100")['path'];
    }
    $items = parallel($jobs, limit: 2);
    echo $elapsed(), '  two at a time: ', implode(' ', $items), "\n";

    // The broken backend fails after 50 ms: the 2 s call is canceled then, not awaited.
    $start = hrtime(true);
    try {
        parallel([
            'slow' => fn () => fetch($address, '/slow?ms=2000'),
            'broken' => fn () => fetch($address, '/broken?ms=50'),
        ]);
    } catch (RuntimeException $e) {
        echo $elapsed(), '  failed fast: ', $e->getMessage(), "\n";
    }

    // A deadline for the whole group.
    $start = hrtime(true);
    try {
        parallel(['slow' => fn () => fetch($address, '/slow?ms=2000')], timeout: 0.15);
    } catch (TimeoutException $e) {
        echo $elapsed(), '  ', $e->getMessage(), "\n";
    }

    // The server, and the answers it still owes to the calls canceled above.
    foreach (Coroutine::list() as $id) {
        if ($id !== Coroutine::id()) {
            Coroutine::cancel($id);
        }
    }
});
