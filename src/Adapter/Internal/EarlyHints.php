<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Closure;
use Rapier\Http\Response;

/**
 * 103 Early Hints for applications served by a framework adapter, through
 * headers_send() as FrankenPHP defines it (headers_send.php): Symfony's
 * Response::sendHeaders(103) and AbstractController::sendEarlyHints() (6.3
 * and later) call it when it exists, and so does code written for
 * FrankenPHP (`header('Link: ...'); headers_send(103);`).
 *
 * The 103 carries the headers set through PHP so far, which stay set, as
 * under FrankenPHP: the final response has them too. Symfony sets the
 * final response's headers again after a 103, replacing those it set for
 * it (a Link, and its default Date and Cache-Control); so a header set
 * through PHP before headers_send(103) gives way to the framework
 * response's header of the same name, whether the 103 went out or not
 * (the server's early_hints option is off by default).
 *
 * One request at a time, as RequestScope serves them: the state is static
 * because headers_send() is a plain function.
 *
 * @internal
 */
final class EarlyHints
{
    private static ?Response $response = null;

    private static ?OutputCapture $output = null;

    /** @var array<string, true> the fields set when headers_send(1xx) was called, as "lower-case name: value" */
    private static array $offered = [];

    public static function begin(Response $response, OutputCapture $output): void
    {
        self::$response = $response;
        self::$output = $output;
        self::$offered = [];
    }

    public static function end(): void
    {
        self::$response = null;
        self::$output = null;
        self::$offered = [];
    }

    /**
     * headers_send($status): for 103, an interim response with the headers
     * set through PHP; 1 when it went out, 0 when nothing was sent (another
     * status, no request being served, the response already started, the
     * server's early_hints off, an HTTP/1.0 client, a client gone).
     */
    public static function send(int $status): int
    {
        $response = self::$response;
        if ($status < 100 || $status > 199 || $response === null || self::$output === null) {
            return 0;
        }
        $fields = [];
        foreach (self::$output->headers() as [$name, $value]) {
            $fields[$name][] = $value;
            // Offered, sent or not: Symfony counts them as sent and sets them again only when they changed.
            self::$offered[strtolower($name) . ': ' . $value] = true;
        }
        if ($status !== 103 || $response->headersSent()) {
            return 0;
        }

        return $response->earlyHints($fields) ? 1 : 0;
    }

    /**
     * The headers set through PHP, less those offered to a 103 whose name
     * the framework's response has too: its values replace them.
     *
     * @param list<array{string, string}> $native
     * @param Closure(string): bool $finalHas whether the framework's response has a header
     * @return list<array{string, string}>
     */
    public static function withoutReplaced(array $native, Closure $finalHas): array
    {
        if (self::$offered === []) {
            return $native;
        }
        $kept = [];
        foreach ($native as [$name, $value]) {
            if (!isset(self::$offered[strtolower($name) . ': ' . $value]) || !$finalHas($name)) {
                $kept[] = [$name, $value];
            }
        }

        return $kept;
    }
}
