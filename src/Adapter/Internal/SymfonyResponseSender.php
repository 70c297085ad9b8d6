<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Closure;
use Rapier\CanceledException;
use Rapier\Coroutine;
use Rapier\Http\Response;
use Symfony\Component\HttpFoundation\BinaryFileResponse;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;
use Symfony\Component\HttpFoundation\StreamedResponse;

/**
 * Sends a Symfony HttpFoundation response (Laravel's and Lumen's too)
 * through a Rapier response, with what the request set through PHP itself.
 *
 * Under php-fpm, Response::send() calls header() for each of its headers
 * after whatever the application set with header() or setcookie(): both
 * reach the client, the response's status wins, and its Content-Type
 * replaces an earlier one. The same happens here. Echoed output comes
 * before the body, as with php-fpm's default output buffering.
 *
 * Files go out with sendfile() (a Range the response prepared included);
 * streamed responses are written chunk by chunk as their callback echoes.
 *
 * @internal
 */
final class SymfonyResponseSender
{
    /** Reads a response's reason phrase (a protected property), bound once. */
    private static ?Closure $statusText = null;

    public static function send(SymfonyResponse $response, Response $out, OutputCapture $capture): void
    {
        $echoed = $capture->take();
        self::sendHead($response, $out, $capture->headers());
        if ($response instanceof BinaryFileResponse) {
            self::sendFile($response, $out, $echoed);
        } elseif ($response instanceof StreamedResponse) {
            self::sendStream($response, $out, $echoed);
        } else {
            $out->end($echoed . $response->getContent());
        }
    }

    /** @param list<array{string, string}> $native headers set with header() */
    private static function sendHead(SymfonyResponse $response, Response $out, array $native): void
    {
        $out->status($response->getStatusCode(), self::reason($response));
        $hasType = $response->headers->has('Content-Type');
        $native = EarlyHints::withoutReplaced($native, $response->headers->has(...));
        foreach ($native as [$name, $value]) {
            if (!$hasType || strcasecmp($name, 'Content-Type') !== 0) {
                $out->header($name, $value);
            }
        }
        foreach ($response->headers->allPreserveCaseWithoutCookies() as $name => $values) {
            foreach ($values as $value) {
                $out->header($name, (string) $value);
            }
        }
        foreach ($response->headers->getCookies() as $cookie) {
            $out->header('Set-Cookie', (string) $cookie);
        }
    }

    /** A reason phrase set by the application; "" for the standard one. */
    private static function reason(SymfonyResponse $response): string
    {
        self::$statusText ??= Closure::bind(static fn (SymfonyResponse $response): string => $response->statusText,
            null, SymfonyResponse::class);
        $text = (self::$statusText)($response);
        $code = $response->getStatusCode();
        $standard = SymfonyResponse::$statusTexts[$code] ?? 'unknown status';
        if ($text === $standard || strlen($text) > 64 || preg_match('/[^\x20-\x7e]/', $text)) {
            return '';
        }

        return $text;
    }

    private static function sendFile(BinaryFileResponse $response, Response $out, string $echoed): void
    {
        [$offset, $length, $delete] = (fn (): array => [$this->offset, $this->maxlen, $this->deleteFileAfterSend])
            ->call($response);
        $path = $response->getFile()->getPathname();
        try {
            if (!$response->isSuccessful()) {
                // A 416 for a range past the end, a 304: no file, as BinaryFileResponse::sendContent() does.
                $out->end($echoed);
            } elseif ($echoed === '') {
                $out->sendfile($path, $offset, $length >= 0 ? $length : null);
            } else {
                $out->write($echoed);
                self::writeFile($out, $path, $offset, $length);
                $out->end();
            }
        } finally {
            if ($delete && is_file($path)) {
                unlink($path);
            }
        }
    }

    private static function writeFile(Response $out, string $path, int $offset, int $length): void
    {
        $file = fopen($path, 'rb');
        if ($file === false) {
            return;
        }
        try {
            fseek($file, $offset);
            $left = $length >= 0 ? $length : PHP_INT_MAX;
            while ($left > 0 && !feof($file)) {
                $chunk = fread($file, (int) min(65536, $left));
                if ($chunk === false || $chunk === '' || !$out->write($chunk)) {
                    break;
                }
                $left -= strlen($chunk);
            }
        } finally {
            fclose($file);
        }
    }

    private static function sendStream(StreamedResponse $response, Response $out, string $echoed): void
    {
        if ($echoed !== '') {
            $out->write($echoed);
        }
        $abort = new UserAbort(Coroutine::id());
        // A chunk size of 1 hands every echo of the callback over at once.
        ob_start(static function (string $data) use ($out, $abort): string {
            if ($data !== '' && !$out->write($data)) {
                $abort->outputFailed();
            }

            return '';
        }, 1);
        $level = ob_get_level();
        try {
            $response->sendContent();
        } catch (CanceledException $e) {
            // Its client left and it wrote on: ended as php-fpm ends the script (UserAbort).
            if (!$abort->canceled()) {
                throw $e;
            }
        } finally {
            $abort->streamEnded();
            // The callback may have left buffers open above ours (flushed into
            // it), or closed ours (what it echoed after that is lost, see
            // docs/frameworks.md); ending a buffer that is gone would warn.
            while (ob_get_level() >= $level) {
                ob_end_flush();
            }
        }
        $out->end();
    }
}
