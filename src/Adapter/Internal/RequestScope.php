<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Closure;
use Rapier\Channel;
use Rapier\Exception;
use Rapier\ExitException;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\ProcessState;

use function Rapier\trap_exit;

/**
 * The part of serving a request that is the same for every framework: one
 * request at a time, PHP's globals filled and cleaned, output and headers
 * captured, the app's static properties and PHP's process-wide settings
 * (ini, handlers, environment, locale...) put back, and exit() ending the
 * request as it ends a php-fpm script.
 *
 * One at a time because frameworks built for php-fpm keep the current
 * request in globals (the container, facades, superglobals, SAPI's header
 * list). A request that waits on a hooked database call would otherwise let
 * the next one in, and each would see the other's state. The server's
 * `concurrency` option set to 1 does the same for the whole worker;
 * this lock keeps a framework adapter correct when it is not set.
 *
 * @internal
 */
final class RequestScope
{
    /**
     * ini settings restore() leaves: a framework's session storage (Symfony's)
     * sets the session's once, when the first request that needs it creates it.
     */
    private const KEEP_INI = ['session.'];

    public readonly OutputCapture $output;

    private readonly Globals $globals;

    private readonly StaticProperties $statics;

    private ?ServerVariables $server = null;

    /** ini settings, error handlers, environment, locale... as boot left them. */
    private ?ProcessState $settings = null;

    /** A one-slot channel used as a mutex: full while a request is served. */
    private readonly Channel $lock;

    /** ignore_user_abort as boot left it: each request starts with it, as each php-fpm request starts with php.ini's. */
    private bool $ignoreUserAbort;

    /**
     * @param string|null $frontController the app's public/index.php, for SCRIPT_FILENAME
     * @param list<string> $appDirectories classes declared under these get their statics reset
     * @param list<string> $excludedDirectories ...except under these (vendor/)
     */
    public function __construct(
        private readonly ?string $frontController = null,
        array $appDirectories = [],
        array $excludedDirectories = [],
    ) {
        require_once __DIR__ . '/headers_send.php';
        $this->output = new OutputCapture();
        $this->globals = new Globals();
        $this->statics = new StaticProperties($appDirectories, $excludedDirectories);
        $this->lock = new Channel(1);
        $this->ignoreUserAbort = (bool) ignore_user_abort();
    }

    /** Takes the current state of globals and statics as the clean one: call it at the end of boot. */
    public function capture(): void
    {
        // dump() and dd() then write HTML into the response, as under php-fpm,
        // instead of text to the worker's output (PHP_SAPI is "cli" here).
        $_SERVER['VAR_DUMPER_FORMAT'] ??= 'html';
        $this->server = new ServerVariables($_SERVER, $this->frontController);
        $this->globals->capture();
        $this->statics->capture();
        $this->ignoreUserAbort = (bool) ignore_user_abort();
        $this->settings = ProcessState::capture(self::KEEP_INI);
    }

    /**
     * Runs $serve($server) with the request's globals in place, then $reset(),
     * then cleans what PHP itself keeps. $server is the request's $_SERVER.
     * When the application calls exit(), $response gets what PHP has (below)
     * and the rest goes on as after a return: $reset, not the code that
     * followed the exit inside $serve, is the place for clean-up that must
     * happen.
     *
     * @param Closure(array<string, mixed>): void $serve
     * @param Closure(): void $reset
     */
    public function run(Request $request, Response $response, Closure $serve, Closure $reset): void
    {
        // With request_buffering off, the whole body first, as the framework's request object promises,
        // spooled to disk past body_buffer_size; and before the lock, so a slow upload holds up no one.
        $request->bufferBody();
        $this->lock->push(true);
        try {
            $this->server ??= new ServerVariables($_SERVER, $this->frontController);
            $this->settings ??= ProcessState::capture(self::KEEP_INI);
            $server = $this->server->build($request);
            $this->globals->enter($request, $server);
            $this->output->start();
            EarlyHints::begin($response, $this->output);
            try {
                trap_exit($serve, $server);
            } catch (ExitException) {
                $this->answerExit($response);
            } finally {
                EarlyHints::end();
                $this->output->stop();
                try {
                    $reset();
                } finally {
                    $this->globals->leave();
                    $this->statics->restore();
                    ignore_user_abort($this->ignoreUserAbort);
                    $this->settings->restore();
                }
            }
        } finally {
            $this->lock->pop();
        }
    }

    /**
     * What php-fpm sends for a script that called exit(): the status, headers
     * and output set through PHP so far, the session written first. The
     * framework's response object was never returned, so it plays no part.
     * When the response had started (a streamed body), it is ended. A status
     * no final response can have throws, and the server answers 500.
     */
    private function answerExit(Response $response): void
    {
        if (session_status() === PHP_SESSION_ACTIVE) {
            session_write_close();
        }
        $output = $this->output->take();
        if (!$response->isWritable()) {
            return;
        }
        if ($response->headersSent()) {
            $response->write($output);
            $response->end();

            return;
        }
        $status = $this->output->status();
        if ($status < 200 || $status > 599) {
            // A 1xx is interim and no status passes 599: neither can be the answer.
            throw new Exception(sprintf(
                'The application set http_response_code(%d) and called exit(): a final response needs'
                . ' a status from 200 to 599; set one before exit()',
                $status,
            ));
        }
        $response->status($status);
        foreach ($this->output->headers() as [$name, $value]) {
            $response->header($name, $value);
        }
        $response->end($output);
    }
}
