<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

/**
 * What a request produced through PHP itself rather than through its
 * framework's response object: `echo` and print output, and the headers
 * and status set with header(), setcookie(), the session module and
 * http_response_code().
 *
 * Output goes to an output buffer opened by start(). Headers are read from
 * SAPI's header list: inside a Rapier server worker the extension keeps
 * header() calls there as php-fpm does (the CLI SAPI alone drops them, and
 * headers_list() is then empty). The list is the process's, which is why
 * the framework adapters serve one request at a time.
 *
 * @internal
 */
final class OutputCapture
{
    /** Output buffering level below ours, or -1 when not capturing. */
    private int $level = -1;

    public function start(): void
    {
        self::clearHeaders();
        $this->level = ob_get_level();
        ob_start();
    }

    /**
     * Returns what was echoed since start() (or the previous take()) and
     * keeps capturing. Buffers the application opened and left open are
     * flushed into ours first, as PHP flushes them at the end of a request.
     */
    public function take(): string
    {
        if ($this->level < 0) {
            return '';
        }
        while (ob_get_level() > $this->level + 1) {
            ob_end_flush();
        }
        if (ob_get_level() <= $this->level) {
            // The application closed our buffer itself; what it echoed after
            // that went straight to the worker's output.
            ob_start();

            return '';
        }
        $output = (string) ob_get_contents();
        ob_clean();

        return $output;
    }

    /**
     * The headers set through PHP, in the order they were set, as name and
     * value; several Set-Cookie lines stay several entries.
     *
     * @return list<array{string, string}>
     */
    public function headers(): array
    {
        $headers = [];
        foreach (headers_list() as $line) {
            $colon = strpos($line, ':');
            if ($colon === false) {
                continue;
            }
            $headers[] = [substr($line, 0, $colon), ltrim(substr($line, $colon + 1), " \t")];
        }

        return $headers;
    }

    /** The status set with http_response_code() or a header("HTTP/1.1 ...") line; 200 when none. */
    public function status(): int
    {
        $status = http_response_code();

        return is_int($status) && $status > 0 ? $status : 200;
    }

    /** Ends capturing: drops any output not taken and clears the headers. */
    public function stop(): void
    {
        if ($this->level >= 0) {
            while (ob_get_level() > $this->level) {
                ob_end_clean();
            }
            $this->level = -1;
        }
        self::clearHeaders();
    }

    private static function clearHeaders(): void
    {
        // Outside a Rapier worker (under the plain CLI SAPI, after some
        // output) both would only warn: there is no header list to clear.
        if (headers_sent()) {
            return;
        }
        header_remove();
        http_response_code(200);
    }
}
