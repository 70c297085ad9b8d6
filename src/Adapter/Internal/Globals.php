<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Rapier\Http\Request;

/**
 * The global variables a request sees, and their cleaning afterwards.
 *
 * enter() fills $_GET, $_POST, $_COOKIE, $_FILES, $_REQUEST and $_SERVER the
 * way PHP fills them for a request (a body only reaches $_POST and $_FILES
 * for POST; $_REQUEST is GET then POST, request_order "GP"), for code that
 * still reads them, and points the session module at the request's own
 * session. leave() closes a native PHP session as php-fpm does at the end
 * of a request (written), empties those arrays, and puts the other globals
 * back as they were at capture(): a global added by a request is removed,
 * one changed is restored.
 *
 * @internal
 */
final class Globals
{
    /** Names in $GLOBALS that are not the application's own variables. */
    private const SUPERGLOBALS = [
        'GLOBALS' => true, '_GET' => true, '_POST' => true, '_COOKIE' => true, '_FILES' => true,
        '_SERVER' => true, '_REQUEST' => true, '_ENV' => true, '_SESSION' => true,
        'argv' => true, 'argc' => true,
    ];

    /** @var array<string, mixed> */
    private array $server = [];

    /** @var array<string, mixed> */
    private array $globals = [];

    /** Whether resumeSession() left the session module an empty id rather than none. */
    private bool $sessionEmptied = false;

    public function capture(): void
    {
        $this->server = $_SERVER;
        $this->globals = array_diff_key($GLOBALS, self::SUPERGLOBALS);
    }

    /** @param array<string, mixed> $server */
    public function enter(Request $request, array $server): void
    {
        $_SERVER = $server;
        $_GET = $request->query;
        $_COOKIE = $request->cookies;
        $isPost = $request->method === 'POST';
        $_POST = $isPost ? $request->post : [];
        $_FILES = $isPost ? $request->files : [];
        // PHP merges the two recursively, POST winning (php_autoglobal_merge).
        $_REQUEST = array_replace_recursive($_GET, $_POST);
        $this->resumeSession($request->cookies);
    }

    public function leave(): void
    {
        $this->closeSession();
        $_GET = $_POST = $_COOKIE = $_FILES = $_REQUEST = [];
        $_SERVER = $this->server;
        foreach (array_diff_key($GLOBALS, self::SUPERGLOBALS) as $name => $value) {
            if (!array_key_exists($name, $this->globals)) {
                unset($GLOBALS[$name]);
            } elseif ($value !== $this->globals[$name]) {
                $GLOBALS[$name] = $this->globals[$name];
            }
        }
    }

    private function closeSession(): void
    {
        if (session_status() === PHP_SESSION_ACTIVE) {
            session_write_close();
        }
        unset($_SESSION);
    }

    /**
     * The session module frees its session id only when a PHP request
     * ends, which a worker's requests never do: the id of the previous
     * request's session is still there, and session_start() would reopen
     * that client's session for whoever comes next (it looks for the
     * session cookie only when there is no id). The id is replaced with the
     * one of this request's cookie, under the session name in effect, or
     * emptied when there is none (a new session is then started). PHP
     * cannot be given "no id" back: an emptied id stays emptied, and is
     * replaced again for every request until a cookie names a session.
     *
     * @param array<string, mixed> $cookies
     */
    private function resumeSession(array $cookies): void
    {
        if (session_status() !== PHP_SESSION_NONE || headers_sent()) {
            return;
        }
        if (session_id() === '' && !$this->sessionEmptied) {
            // No id at all: session_start() finds the cookie itself.
            return;
        }
        $id = $cookies[session_name()] ?? '';
        $id = is_string($id) ? $id : '';
        session_id($id);
        $this->sessionEmptied = $id === '';
    }
}
